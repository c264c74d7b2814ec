/**
 * The round panel in VS Code: implements {@link InputUi} with one webview panel per call (flow),
 * reused across its rounds, and one panel per tool / prompt arguments form, which becomes the round
 * panel of the call made with its arguments (no new webview to wait for when the first round comes).
 *
 * Thin adapter: the logic (round grouping, answers, message checks, URL consent, sampling review)
 * is in `callPanel.ts`, `inputs/` and `argumentsForm.ts` and runs without VS Code; this file creates
 * the webview (strict CSP with a nonce, `html.ts`, through `shared/webviewPanel.ts`), forwards its messages, and opens a URL with
 * `vscode.env.openExternal` only when the model asks, i.e. after the person's click (docs/field-cases.md, F5).
 *
 * Spec: MCP 2026-07-28 "Multi Round-Trip Requests", "Elicitation", "Sampling".
 */
import * as vscode from 'vscode';
import type { FieldErrors, RawFormValues } from '../../core/elicitation/formModel';
import type { ArgumentsRequest, InputUi } from './inputUi';
import type { RoundTripLog } from '../shared/roundTripLog';
import { openWebviewPanel } from '../shared/webviewPanel';
import type { PanelView, ToWebview } from './protocol';
import { ArgumentsForm } from './argumentsForm';
import { CallPanel } from './callPanel';
import type { PanelHost } from './panelHost';

/** The view type of round panels (and of argument panels). */
export const ROUND_PANEL_VIEW_TYPE = 'mcpRoundtrip.round';

/**
 * A webview panel created on demand (first render, or again after the person closed it). Messages
 * go to `onMessage`; the person closing it goes to `onClosed` (closing it ourselves does not).
 */
class WebviewHost<V extends PanelView> implements PanelHost<V> {
  private panel: vscode.WebviewPanel | undefined;
  private closing = false;
  onMessage: (m: unknown) => void = () => {};
  onClosed: () => void = () => {};

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: RoundTripLog,
    private readonly titleOf: (view: V) => string,
  ) {}

  render(view: V, reveal: boolean): void {
    const title = this.titleOf(view);
    // A call asked from chat opens beside the chat, which keeps its place and the focus (the person
    // may be typing there: a keystroke must not answer the server).
    const fromChat = view.kind === 'round' && !!view.askedFrom;
    if (!this.panel) this.panel = this.create(title, fromChat ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active, fromChat);
    else {
      this.panel.title = title;
      if (reveal && !this.panel.active) this.panel.reveal(undefined, fromChat);
    }
    this.post({ type: 'view', view });
  }

  errors(id: string, errors: FieldErrors): void {
    this.post({ type: 'errors', id, errors });
  }

  close(): void {
    const panel = this.panel;
    if (!panel) return;
    this.closing = true;
    try {
      panel.dispose();
    } finally {
      this.closing = false;
      this.panel = undefined;
    }
  }

  openExternal(url: string): Promise<boolean> {
    return Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true)));
  }

  debug(text: string): void {
    this.log.channel.debug(text);
  }

  private post(message: ToWebview): void {
    // Before the script loaded the message may be lost; the webview's `ready` brings the view again.
    void this.panel?.webview.postMessage(message).then(undefined, () => undefined);
  }

  private create(title: string, viewColumn: vscode.ViewColumn, preserveFocus: boolean): vscode.WebviewPanel {
    // Switching tabs must never lose what the person typed (design: never lose typed input).
    const panel = openWebviewPanel(this.extensionUri, { viewType: ROUND_PANEL_VIEW_TYPE, title, script: 'roundPanel.js', style: 'roundPanel.css', retainContextWhenHidden: true, viewColumn, preserveFocus, warn: (t) => this.log.warn(t) });
    panel.webview.onDidReceiveMessage((m: unknown) => this.onMessage(m));
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
      if (!this.closing) this.onClosed();
    });
    return panel;
  }
}

/** The tab title: the call and its round, or the tool's (prompt's) arguments. */
function panelTitle(v: PanelView): string {
  if (v.kind === 'arguments') return `${v.server}: ${v.name} arguments`;
  return `${v.server}: ${v.target}${v.round > 0 ? ` (round ${v.round})` : ''}`;
}

/** The round panels, as calls asked from chat use them: a flow's panel can be headed by who asked. */
export interface ChatPanels extends Pick<InputUi, 'endFlow'> {
  /** Head flow `flowId`'s panel with `askedFrom` (e.g. "asked from chat") and open it beside; until the flow ends. */
  markAskedFrom(flowId: number, askedFrom: string): void;
}

/**
 * Create the round panels (one webview panel per call). Dispose to close every panel: pending
 * inputs are withdrawn (HostError `cancelled`), pending argument forms resolve `undefined`.
 */
export function createRoundPanels(context: vscode.ExtensionContext, log: RoundTripLog): InputUi & ChatPanels & vscode.Disposable {
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
    if (flow.flowId === 0) void p.then(() => settleUnknownFlow(flow), () => settleUnknownFlow(flow));
    return p;
  };

  return {
    elicit: (params, ctx) => {
      const flow = flowFor(ctx.round.flowId);
      return watch(flow, flow.elicit(params, ctx));
    },
    reviewSampling: (request, backend, ctx) => {
      const flow = flowFor(ctx.round.flowId);
      return watch(flow, flow.reviewSampling(request, backend, ctx));
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
