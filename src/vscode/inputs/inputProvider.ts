/**
 * The host's {@link InputProvider} in VS Code: elicitation through the round panel, sampling through
 * `vscode.lm` (with review in the panel), roots from the workspace folders (shown in the panel).
 * Declares exactly what it can answer.
 */
import * as vscode from 'vscode';
import type { InputProvider } from '../../core/inputs/inputProvider';
import type { InputUi } from '../roundPanel/inputUi';
import type { RoundTripLog } from '../shared/roundTripLog';
import { workspaceRoots } from './workspaceRoots';
import { withAppsCapability } from '../../core/apps/appsCapability';
import { appsEnabled } from '../apps/appsSetting';
import { askUrlDone } from './urlDone';
import type { Sampler } from '../sampling/sampler';
import type { ElicitationApp } from '../roundPanel/inputs/formInput';
import type { InputContext } from '../../core/inputs/inputProvider';

/**
 * Serves the app of an app-rendered elicitation (SEP-3118; `AppViews.elicitationApp`), or says
 * `undefined` for the native form. Never throws.
 */
export type ElicitationApps = (params: unknown, ctx: InputContext) => Promise<{ app: ElicitationApp; dispose(): void } | undefined>;

/**
 * The host's provider: elicitation through the round panel (`ui`), sampling through `sampler`, roots
 * from the workspace folders (shown in the panel; notes about folders that are not on disk go to `log`).
 * A form naming a `ui://` app is answered by that app in its card when `apps` serves it.
 */
export function vscodeInputs(ui: InputUi, sampler: Sampler, log: RoundTripLog, apps?: ElicitationApps): InputProvider {
  return {
    // Read at each connection, so turning MCP Apps off takes effect for the next one.
    get capabilities() {
      const base = { elicitation: { form: {}, url: {} }, ...(sampler.capability ? { sampling: sampler.capability } : {}), roots: {} };
      return withAppsCapability(base, appsEnabled(), { elicitation: true });
    },
    elicit: async (params, ctx) => {
      const served = apps ? await apps(params, ctx) : undefined;
      try {
        return await ui.elicit(params, ctx, served?.app);
      } finally {
        served?.dispose();
      }
    },
    // A URLElicitationRequiredError's URL, opened with consent in the panel: the call is sent again on Done.
    urlDone: (params, ctx) =>
      askUrlDone(params, ctx, (message, ...items) => vscode.window.showInformationMessage(message, ...items), {
        message: (server, method, target, host, done) =>
          vscode.l10n.t(
            'MCP Roundtrip: {0} sends {1} {2} again once you are done at {3}. Choose {4} when you are.',
            server,
            method,
            target,
            host,
            done,
          ),
        done: vscode.l10n.t('Done'),
        cancel: vscode.l10n.t('Cancel'),
      }),
    sample: (params, ctx) => sampler.sample(params, ctx),
    // At hand: the retry is written in the same turn (no microtask turn for the transport's own work).
    listRoots: (ctx) => {
      const { result, notes } = workspaceRoots(vscode.workspace.workspaceFolders);
      for (const n of notes) log.info(`[${ctx.round.server}] ${n}`);
      ui.showRoots(result, ctx);
      return result;
    },
  };
}
