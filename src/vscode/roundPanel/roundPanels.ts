/**
 * The round panel in VS Code: implements {@link InputUi} with one webview panel per call (flow),
 * reused across its rounds, and one panel per tool / prompt arguments form, which becomes the round
 * panel of the call made with its arguments (no new webview to wait for when the first round comes).
 *
 * Thin adapter: the logic (round grouping, answers, message checks, URL consent, sampling review)
 * is in `callPanel.ts`, `inputs/` and `argumentsForm.ts` and runs without VS Code; the webview panel
 * itself (created on demand, its messages forwarded, a URL opened only when the model asks, i.e.
 * after the person's click: docs/field-cases.md, F5) is `webviewHost.ts`; this file ties a call's
 * panel to its flow and to the arguments form it came from.
 *
 * Spec: MCP 2026-07-28 "Multi Round-Trip Requests", "Elicitation", "Sampling".
 */
import * as vscode from 'vscode';
import type { RawFormValues } from '../../core/elicitation/formModel';
import type { ArgumentsRequest, InputUi } from './inputUi';
import type { RoundTripLog } from '../shared/roundTripLog';
import type { PanelView } from './protocol';
import { ArgumentsForm } from './argumentsForm';
import { CallPanel } from './callPanel';
import { WebviewHost } from './webviewHost';
import type { WaitingRounds } from './waitingRounds';
import type { InputContext } from '../../core/inputs/inputProvider';

/** The tab title: the call and its round, or the tool's (prompt's) arguments. */
function panelTitle(v: PanelView): string {
  if (v.kind === 'arguments') return vscode.l10n.t('{0}: {1} arguments', v.server, v.name);
  return v.round > 0 ? vscode.l10n.t('{0}: {1} (round {2})', v.server, v.target, v.round) : `${v.server}: ${v.target}`;
}

/** The round panels, as calls asked from chat use them: a flow's panel can be headed by who asked. */
export interface ChatPanels extends Pick<InputUi, 'endFlow'> {
  /** Head flow `flowId`'s panel with `askedFrom` (e.g. "asked from chat") and open it beside; until the flow ends. */
  markAskedFrom(flowId: number, askedFrom: string): void;
}

/**
 * Create the round panels (one webview panel per call). Dispose to close every panel: pending
 * inputs are withdrawn (HostError `cancelled`), pending argument forms resolve `undefined`.
 * @param waiting told when an input starts waiting for the person and when a call ends (the status bar signal)
 */
export function createRoundPanels(
  context: vscode.ExtensionContext,
  log: RoundTripLog,
  waiting?: WaitingRounds,
): InputUi & ChatPanels & vscode.Disposable {
  const flows = new Map<number, CallPanel>();
  const askedFrom = new Map<number, string>();
  const argumentForms = new Set<ArgumentsForm>();
  /** Arguments panels submitted, kept open for the call made with their arguments (by its request). */
  const kept = new Map<ArgumentsRequest, WebviewHost<PanelView>>();
  /** Raw values last submitted per server / kind / name, to pre-fill the next call's form. */
  const lastArguments = new Map<string, RawFormValues>();

  /** The call's panel; created on its first input, over `adopted` (its arguments panel) when given. */
  const flowFor = (flowId: number, adopted?: WebviewHost<PanelView>): CallPanel => {
    let flow = flows.get(flowId);
    if (!flow) {
      const host = adopted ?? new WebviewHost<PanelView>(context.extensionUri, log, panelTitle);
      const created = new CallPanel(flowId, host);
      created.askedFrom = askedFrom.get(flowId);
      host.onMessage = (m) => {
        created.receive(m);
        settleUnknownFlow(created);
      };
      host.onClosed = () => {
        created.closedByUser();
        settleUnknownFlow(created);
      };
      flows.set(flowId, (flow = created));
    }
    return flow;
  };

  // A 2025-era request pushed while several calls run cannot be tied to one (flowId 0): no
  // endFlow will come for it, so its panel closes once it is answered.
  const settleUnknownFlow = (flow: CallPanel) => {
    if (flow.flowId !== 0 || flow.pending) return;
    flow.end();
    flows.delete(0);
  };
  const watch = <T>(flow: CallPanel, p: Promise<T>): Promise<T> => {
    if (flow.flowId === 0)
      void p.then(
        () => settleUnknownFlow(flow),
        () => settleUnknownFlow(flow),
      );
    return p;
  };

  // An input that is still pending once asked (not refused or answered at once) waits for the person.
  const signal = <T>(flow: CallPanel, ctx: InputContext, p: Promise<T>): Promise<T> => {
    if (waiting && flow.pending) waiting.asked(flow, ctx.round, p);
    return p;
  };

  return {
    elicit: (params, ctx, app) => {
      const flow = flowFor(ctx.round.flowId);
      return watch(flow, signal(flow, ctx, flow.elicit(params, ctx, app)));
    },
    reviewSampling: (request, backend, ctx) => {
      const flow = flowFor(ctx.round.flowId);
      return watch(flow, signal(flow, ctx, flow.reviewSampling(request, backend, ctx)));
    },
    showRoots: (roots, ctx) => {
      // Roots alone never open a panel for a call we cannot identify (nothing would close it).
      if (ctx.round.flowId === 0 && !flows.get(0)?.pending) return;
      flowFor(ctx.round.flowId).showRoots(roots, ctx);
    },
    collectArguments: (request, signal) => {
      const id = `${request.server}\u0000${request.kind}\u0000${request.name}`;
      const host = new WebviewHost<PanelView>(context.extensionUri, log, panelTitle);
      const form = new ArgumentsForm(request, (request.initial as RawFormValues | undefined) ?? lastArguments.get(id), host, signal);
      host.onMessage = (m) => form.receive(m);
      host.onClosed = () => form.closedByUser();
      argumentForms.add(form);
      return form.result.then((args) => {
        argumentForms.delete(form);
        if (!args) {
          host.close();
          return args;
        }
        if (form.submitted) lastArguments.set(id, form.submitted);
        // Open, read-only, until the call takes it (startCall) or ends without a round (endArguments).
        kept.set(request, host);
        host.onMessage = () => {};
        host.onClosed = () => kept.delete(request);
        return args;
      });
    },
    markAskedFrom: (flowId, from) => {
      askedFrom.set(flowId, from);
      const flow = flows.get(flowId);
      if (flow) flow.askedFrom = from;
    },
    startCall: (request, flowId) => {
      const host = kept.get(request);
      if (!host) return;
      kept.delete(request);
      if (flows.has(flowId)) host.close();
      else flowFor(flowId, host);
    },
    endArguments: (request) => {
      kept.get(request)?.close();
      kept.delete(request);
    },
    endFlow: (flowId) => {
      waiting?.ended(flowId);
      flows.get(flowId)?.end();
      flows.delete(flowId);
      askedFrom.delete(flowId);
    },
    dispose: () => {
      for (const flow of flows.values()) flow.end();
      flows.clear();
      for (const form of argumentForms) form.closedByUser();
      argumentForms.clear();
      for (const host of kept.values()) host.close();
      kept.clear();
    },
  };
}
