/**
 * The round panel of one call (a flow: the call with all its rounds, as the log names it), without
 * `vscode`, so it runs under plain Node in unit tests. It groups the call's inputs by round, decides
 * when a round is shown and brought to the front, and routes what the webview sends to the input it
 * is about. Each input is an object of its own (`inputs/`: its state machine, its view, its
 * messages); this file never switches on their kind.
 *
 * Spec: MCP 2026-07-28 "Multi Round-Trip Requests": every input of a round is answered before the
 * retry, and one panel per call shows the inputs of its current round together.
 */
import type { ElicitRequestParams, ElicitResult, ListRootsResult } from '@modelcontextprotocol/client';
import type { RawFormValues } from '../../core/elicitation/formModel';
import type { InputContext } from '../../core/inputs/inputProvider';
import type { ReviewedAnswer, SamplingBackend, SamplingReviewRequest } from '../../core/sampling/samplingFlow';
import { CallRounds } from './callRounds';
import { acceptAll, FormInput, type ElicitationApp } from './inputs/formInput';
import type { ElicitationSettle } from './inputs/elicitationInput';
import { NOT_FOR_THIS_INPUT, withdrawnError, type InputPanel } from './inputs/pendingInput';
import { RootsNote } from './inputs/rootsNote';
import { declinedSampling, SamplingInput } from './inputs/samplingInput';
import { UrlInput } from './inputs/urlInput';
import type { PanelHost } from './panelHost';
import { parseWebviewMessage } from './parseMessage';
import type { RoundView } from './protocol';

/**
 * The round panel of one call: every input of its current round, answers built from what the webview
 * sends. Implements the per-call half of `InputUi` (`inputUi.ts`); `roundPanels.ts` creates the webview.
 *
 * Carried across the rounds of the call: the raw values the person submitted for each `inputRequests`
 * key (a re-asked form opens with them), and the URLs already answered (a re-asked URL is shown again
 * with a note, never opened on our own).
 */
export class CallPanel implements InputPanel {
  private readonly rounds: CallRounds;
  private readonly memory: CallMemory = { formValues: new Map(), urlAnswers: new Map() };
  /** True once the call ended: later inputs are refused, late events change nothing. */
  ended = false;
  /** Who asked for the call, when not the person at the palette (the panel's heading shows it: "asked from chat"). */
  askedFrom?: string;

  /**
   * @param flowId the call's id (`RoundInfo.flowId`)
   * @param host the panel (created on first render, again after the person closed it)
   */
  constructor(
    readonly flowId: number,
    private readonly host: PanelHost<RoundView>,
  ) {
    this.rounds = new CallRounds(host.setTimer?.bind(host), (reveal) => this.render(reveal));
  }

  /**
   * Ask the person (form or URL consent): accept (Submit, Open in browser, Retry), decline, or cancel
   * (Cancel, Escape, panel closed). @throws HostError `cancelled` when `ctx.signal` aborts or the call ends first
   */
  elicit(params: ElicitRequestParams, ctx: InputContext, app?: ElicitationApp): Promise<ElicitResult> {
    return new Promise<ElicitResult>((settle, fail) => {
      if (this.ended || ctx.signal.aborted) return fail(withdrawnError());
      const round = this.rounds.entryFor(ctx.round);
      if (round.cancelled) return settle({ action: 'cancel' });
      const input = elicitationInput(this.rounds.newId(), ctx, params, this.memory, { settle, fail }, this, app);
      this.rounds.add(round, input, ctx.signal);
    });
  }

  /**
   * The sampling review card (`inputs/samplingInput.ts`). @throws HostError `declined` when the person
   * declines, cancels the round or closes the panel; `cancelled` when `ctx.signal` aborts or the call ends first
   */
  reviewSampling(request: SamplingReviewRequest, backend: SamplingBackend, ctx: InputContext): Promise<ReviewedAnswer> {
    return new Promise<ReviewedAnswer>((settle, fail) => {
      if (this.ended || ctx.signal.aborted) return fail(withdrawnError());
      const round = this.rounds.entryFor(ctx.round);
      if (round.cancelled) return fail(declinedSampling(ctx.key, this.server, 'the round was cancelled'));
      // Take the placeholder's id, so the webview replaces the placeholder in place.
      const id = round.placeholderId(ctx.key) ?? this.rounds.newId();
      this.rounds.add(round, new SamplingInput(id, ctx.key, request, backend, ctx.signal, { settle, fail }, this), ctx.signal);
    });
  }

  /** Show, for transparency, the roots answered automatically (no answer expected). */
  showRoots(roots: ListRootsResult, ctx: InputContext): void {
    if (this.ended || ctx.signal.aborted) return;
    this.rounds.add(this.rounds.entryFor(ctx.round), new RootsNote(this.rounds.newId(), ctx.key, roots), undefined);
  }

  /** True while some input of this call still waits for the person. */
  get pending(): boolean {
    return this.rounds.pending;
  }

  /** True when the call's panel is on screen (`waitingRounds.ts` notifies only when it is not). */
  get visible(): boolean {
    return this.host.visible ?? true;
  }

  /** Bring the call's panel forward (Show Waiting Round). */
  reveal(): void {
    this.host.reveal?.();
  }

  /**
   * Handle a message from the webview. Malformed messages, and messages about inputs that are not
   * pending or cannot take them, are ignored and logged at debug.
   */
  receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) return this.debug(`ignored a message from the webview: ${parsed.reason}`);
    const m = parsed.message;
    switch (m.type) {
      case 'ready':
        return this.changed();
      case 'submit': {
        const forms = this.rounds.pendingForms();
        if (forms.length === 0) return this.debug('ignored submit: no pending form');
        const remember = (key: string, values: RawFormValues) => this.memory.formValues.set(key, values);
        if (acceptAll(forms, m.forms, (id, errors) => this.host.errors(id, errors), remember)) this.changed();
        return;
      }
      case 'cancel':
        this.rounds.cancel();
        return this.changed();
      case 'submitArgs':
      case 'complete':
        return this.debug(`ignored ${m.type}: not a round panel message`);
      default: {
        const input = this.rounds.find(m.id);
        const why = input ? input.receive(m) : NOT_FOR_THIS_INPUT[m.type];
        if (why !== undefined) this.debug(`ignored ${m.type} for input ${m.id}: ${why}`);
      }
    }
  }

  /** The person closed the panel: like Cancel (docs/field-cases.md, F4 flow B). The call goes on. */
  closedByUser(): void {
    this.rounds.cancel();
  }

  /** The call ended (result, error or cancel): withdraw what is still pending (HostError `cancelled`), close the panel. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.rounds.end();
    this.host.close();
  }

  // InputPanel: what the inputs may ask of this panel.
  readonly changed = (): void => this.render(false);
  readonly debug = (text: string): void => this.host.debug(`round panel (flow ${this.flowId}): ${text}`);
  readonly errors = (id: string, errors: Record<string, string>): void => this.host.errors(id, errors);
  readonly openExternal = (url: string): Promise<boolean> => this.host.openExternal(url);
  get server(): string | undefined {
    return this.rounds.server;
  }

  private render(reveal: boolean): void {
    if (this.ended) return;
    const view = this.rounds.view();
    if (view) this.host.render(this.askedFrom ? { ...view, askedFrom: this.askedFrom } : view, reveal);
  }
}

/** What one call remembers across its rounds. */
interface CallMemory {
  /** The raw values the person submitted, by `inputRequests` key (a re-asked form opens with them). */
  formValues: Map<string, RawFormValues>;
  /** The person's answer to each URL (a re-asked URL shows a note and may offer Retry). */
  urlAnswers: Map<string, ElicitResult['action']>;
}

/**
 * The input of an elicitation: a URL consent card, or a form pre-filled from what the call remembers,
 * else from `ctx.prefill` (a saved call's values: shown for the person to submit, never sent by themselves),
 * answered by `app` when one was served for it (SEP-3118).
 */
function elicitationInput(
  id: string,
  { key, prefill }: InputContext,
  params: ElicitRequestParams,
  memory: CallMemory,
  settlement: ElicitationSettle,
  panel: InputPanel,
  app?: ElicitationApp,
): FormInput | UrlInput {
  const p = params as Record<string, unknown>;
  const message = typeof p.message === 'string' ? p.message : '';
  if (p.mode !== 'url') {
    const initial = memory.formValues.get(key) ?? (prefill as RawFormValues | undefined);
    return new FormInput(id, key, message, p.requestedSchema, initial, settlement, panel, app);
  }
  const url = typeof p.url === 'string' ? p.url : '';
  return new UrlInput(
    id,
    key,
    message,
    url,
    memory.urlAnswers.get(url),
    (u, action) => memory.urlAnswers.set(u, action),
    settlement,
    panel,
  );
}
