/**
 * The round panel's logic, without `vscode` (so it runs under plain Node in unit tests):
 * grouping a call's inputs by round, the view sent to the webview, the checks on what the webview
 * sends back, and the answers built from it.
 *
 * Spec: MCP 2026-07-28 "Multi Round-Trip Requests" (every input of a round answered before the
 * retry), "Elicitation" (form and URL mode; accept / decline / cancel) and "Sampling" (human in the
 * loop). Field cases F1-F5 (forms, decline and cancel, URL consent) and F6 (sampling review).
 *
 * - One {@link FlowPanel} per call (flowId), reused across its rounds. Inputs of a round arrive as
 *   separate `elicit` / `reviewSampling` / `showRoots` calls sharing one `RoundInfo` object; the
 *   round is shown at once when every input that reaches the UI synchronously (elicitations, roots)
 *   has arrived, or after {@link ROUND_GRACE_MS}. Sampling reviews come later (the sampler first
 *   chooses a model, one request per server at a time): they show as a placeholder until then, so
 *   the round never waits for them and they never wait for the round.
 * - Submit accepts every pending form of the panel at once, only when every one passes
 *   `buildElicitResult` (ajv); Decline answers one input; Cancel, Escape and closing the panel answer
 *   `cancel` to every pending elicitation (F4: the host still retries so the server can react).
 * - A URL is opened only by {@link PanelHost.openExternal} after the person's click (F5).
 */
import type { CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, ListRootsResult } from '@modelcontextprotocol/client';
import { onAbort } from '../../core/util/async';
import { HostError, errorMessage } from '../../core/util/errors';
import { buildElicitResult, buildFormModel, type FieldErrors, type FormModel, type RawFormValues } from '../../core/elicitation/formCheck';
import type { InputContext, RoundInfo } from '../../core/mrtr/inputs';
import { buildToolArguments, prepareToolSchema, type PreparedToolSchemaOk } from '../../core/jsonSchema/toolSchema';
import { analyzeUrl, type UrlAnalysis } from '../../core/elicitation/urlConsent';
import type { ArgumentsRequest, SamplingBackend, SamplingReviewRequest } from './inputUi';
import {
  ARGUMENTS_ID,
  parseWebviewMessage,
  type AnswerState,
  type ArgumentsView,
  type BlockView,
  type FromWebview,
  type ItemView,
  type MessageEdit,
  type RawValues,
  type RoundView,
  type SamplingMessageView,
  type SamplingStage,
} from './protocol';

/** How long a round waits for its remaining inputs before it is shown anyway (ms). */
export const ROUND_GRACE_MS = 150;
/** Longest JSON shown for a content block the card cannot render (tool_use, tool_result, ...). */
export const MAX_BLOCK_JSON = 20_000;

/** What a panel model needs from the editor (a webview panel in VS Code, a fake in tests). */
export interface PanelHost<V> {
  /**
   * Show `view`, creating the panel when there is none (also after the person closed it).
   * @param reveal bring the panel to the front (a new round opened)
   */
  render(view: V, reveal: boolean): void;
  /** Send field errors for one input (a form item id, or `ARGUMENTS_ID`). */
  errors(id: string, errors: FieldErrors): void;
  /** Close the panel (if open) without it counting as the person closing it. */
  close(): void;
  /** Open `url` in the system browser (`vscode.env.openExternal`); false when it was not opened. */
  openExternal(url: string): Promise<boolean>;
  /** Log at debug level (ignored messages). */
  debug(text: string): void;
  /** A timer; defaults to `setTimeout`. Returns a function that clears it. */
  setTimer?(fn: () => void, ms: number): () => void;
}

// ---------------------------------------------------------------------------------------------
// Sampling content helpers

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Content as a list of blocks (the spec allows one block or an array). */
function blocksOf(content: unknown): unknown[] {
  return Array.isArray(content) ? content : content === undefined ? [] : [content];
}

/**
 * One sampling content block as card data: text, image and audio as such (data stays base64, shown
 * only as a `data:` URI), anything else (tool_use, tool_result, unknown) as read-only JSON.
 */
export function blockView(block: unknown): BlockView {
  if (isRecord(block)) {
    if (block.type === 'text' && typeof block.text === 'string') return { kind: 'text', text: block.text };
    if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string' && typeof block.mimeType === 'string') {
      return { kind: block.type, mimeType: block.mimeType, data: block.data };
    }
  }
  let json: string;
  try {
    json = JSON.stringify(block, null, 2) ?? String(block);
  } catch {
    json = String(block);
  }
  if (json.length > MAX_BLOCK_JSON) json = `${json.slice(0, MAX_BLOCK_JSON)}\n… (${json.length - MAX_BLOCK_JSON} more characters)`;
  return { kind: 'other', type: isRecord(block) && typeof block.type === 'string' ? block.type : 'unknown', json };
}

/** The messages of a sampling request as card data. */
export function samplingMessagesView(params: CreateMessageRequestParams): SamplingMessageView[] {
  const messages = Array.isArray(params.messages) ? (params.messages as unknown[]) : [];
  return messages.map((m) => ({ role: isRecord(m) && typeof m.role === 'string' ? m.role : '?', blocks: blocksOf(isRecord(m) ? m.content : undefined).map(blockView) }));
}

/** Replace the text of one text block; the content keeps its shape (single block or array). */
function withText(content: unknown, index: number, text: string): { content: unknown; ok: boolean } {
  const blocks = blocksOf(content);
  const b = blocks[index];
  if (!isRecord(b) || b.type !== 'text' || typeof b.text !== 'string') return { content, ok: false };
  const copy = blocks.slice();
  copy[index] = { ...b, text };
  return { content: Array.isArray(content) ? copy : copy[0], ok: true };
}

/**
 * The sampling request the person approved: their edited system prompt (an empty one is left out
 * when the server sent none) and edited text blocks. Only text blocks can be edited; edits that point
 * elsewhere are counted in `rejected` and not applied. Everything else (maxTokens, tools, ...) is kept.
 */
export function applySamplingEdits(params: CreateMessageRequestParams, systemPrompt: string, edits: readonly MessageEdit[]): { params: CreateMessageRequestParams; rejected: number } {
  const messages = (Array.isArray(params.messages) ? params.messages : []).map((m) => ({ ...m })) as { content: unknown }[];
  let rejected = 0;
  for (const e of edits) {
    const m = messages[e.message];
    const r = m ? withText(m.content, e.block, e.text) : { content: undefined, ok: false };
    if (!m || !r.ok) rejected++;
    else m.content = r.content;
  }
  const out: Record<string, unknown> = { ...params, messages };
  if (systemPrompt !== '' || typeof params.systemPrompt === 'string') out.systemPrompt = systemPrompt;
  return { params: out as CreateMessageRequestParams, rejected };
}

/** The completion the person sends: `texts[i]` replaces the i-th text block (extra texts are ignored). */
export function applyCompletionEdits(result: CreateMessageResult, texts: readonly string[]): CreateMessageResult {
  const blocks = blocksOf(result.content);
  let t = 0;
  const edited = blocks.map((b) => (isRecord(b) && b.type === 'text' && typeof b.text === 'string' && t < texts.length ? { ...b, text: texts[t++] } : b));
  return { ...result, content: (Array.isArray(result.content) ? edited : edited[0]) as CreateMessageResult['content'] };
}

// ---------------------------------------------------------------------------------------------
// The round panel of one call

interface ItemBase {
  id: string;
  key: string;
  round: RoundEntry;
  /** Removes the abort listener. */
  detach: () => void;
}

interface FormItem extends ItemBase {
  kind: 'form';
  message: string;
  model?: FormModel;
  problem?: string;
  state: AnswerState;
  settle: (r: ElicitResult) => void;
  fail: (e: Error) => void;
}

interface UrlItem extends ItemBase {
  kind: 'url';
  message: string;
  analysis: UrlAnalysis;
  repeated: boolean;
  retryable: boolean;
  state: AnswerState;
  /** True from the click until `openExternal` settles: a second click must not open it twice. */
  opening: boolean;
  note?: string;
  settle: (r: ElicitResult) => void;
  fail: (e: Error) => void;
}

interface SamplingItem extends ItemBase {
  kind: 'sampling';
  request: SamplingReviewRequest;
  backend: SamplingBackend;
  signal: AbortSignal;
  stage: SamplingStage;
  generation?: AbortController;
  modelId?: string;
  completion?: CreateMessageResult;
  error?: string;
  settle: (r: CreateMessageResult) => void;
  fail: (e: Error) => void;
}

interface RootsItem extends ItemBase {
  kind: 'roots';
  roots: { uri: string; name?: string }[];
}

interface WaitingItem extends ItemBase {
  kind: 'waiting';
  method: string;
}

type Item = FormItem | UrlItem | SamplingItem | RootsItem | WaitingItem;

interface RoundEntry {
  info: RoundInfo;
  seq: number;
  items: Map<string, Item>;
  /** Shown in the panel (complete, or its grace time passed). */
  shown: boolean;
  /** The person cancelled the round (Cancel, Escape, closed the panel): late inputs answer at once. */
  cancelled: boolean;
  clearTimer?: () => void;
}

/** True while the item still waits for the person. */
function isPending(item: Item): boolean {
  switch (item.kind) {
    case 'form':
    case 'url':
      return item.state === 'pending';
    case 'sampling':
      return item.stage === 'review' || item.stage === 'generating' || item.stage === 'completion';
    case 'waiting':
      return true;
    default:
      return false;
  }
}

function withdrawnError(): HostError {
  return new HostError('cancelled', 'The call no longer needs this input.');
}

/**
 * The round panel of one call (flow): every input of its current round, answers built from what the
 * webview sends. Implements the per-flow half of `InputUi` (see `inputUi.ts`); the VS Code adapter
 * (`roundPanel.ts`) only creates the webview and forwards messages.
 *
 * Carried across the rounds of the flow: the raw values the person submitted for each
 * `inputRequests` key (a re-asked round opens with them, `buildFormModel`'s `previous`), and the
 * URLs already answered (a re-asked URL is shown again with a note, never opened on our own).
 */
export class FlowPanel {
  private readonly rounds: RoundEntry[] = [];
  private readonly previousByKey = new Map<string, RawFormValues>();
  private readonly urlAnswers = new Map<string, ElicitResult['action']>();
  private nextId = 1;
  private nextSeq = 1;
  private shownSeq = 0;
  private ended = false;

  /**
   * @param flowId the call's id (`RoundInfo.flowId`)
   * @param host the panel (created on first render, again after the person closed it)
   */
  constructor(
    readonly flowId: number,
    private readonly host: PanelHost<RoundView>,
  ) {}

  /**
   * Ask the person (form or URL consent). Resolves with the answer: accept (Submit / Open in browser
   * / Retry), decline (Decline), cancel (Cancel, Escape, panel closed).
   * @throws HostError `cancelled` when `ctx.signal` aborts or the flow ends first (the input's UI closes)
   */
  elicit(params: ElicitRequestParams, ctx: InputContext): Promise<ElicitResult> {
    const p = params as Record<string, unknown>;
    return new Promise<ElicitResult>((resolve, reject) => {
      if (this.ended || ctx.signal.aborted) return reject(withdrawnError());
      const round = this.entryFor(ctx.round);
      if (round.cancelled) return resolve({ action: 'cancel' });
      const base = { id: String(this.nextId++), key: ctx.key, round, detach: () => {} };
      const message = typeof p.message === 'string' ? p.message : '';
      let item: FormItem | UrlItem;
      if (p.mode === 'url') {
        const url = typeof p.url === 'string' ? p.url : '';
        const before = this.urlAnswers.get(url);
        item = { ...base, kind: 'url', message, analysis: analyzeUrl(url), repeated: before !== undefined, retryable: before === 'accept', state: 'pending', opening: false, settle: resolve, fail: reject };
      } else {
        item = { ...base, kind: 'form', message, state: 'pending', settle: resolve, fail: reject };
        try {
          item.model = buildFormModel(p.requestedSchema, this.previousByKey.get(ctx.key));
        } catch (e) {
          item.problem = `This form cannot be shown: ${errorMessage(e)}. You can only decline it.`;
        }
      }
      this.add(item, ctx.signal);
    });
  }

  /**
   * The sampling review card: prompt (editable), model picker, Approve / Decline; then the completion
   * (editable), Send / Decline.
   * @throws HostError `declined` when the person declines (or cancels the round, or closes the panel);
   *   `cancelled` when `ctx.signal` aborts or the flow ends first
   */
  reviewSampling(request: SamplingReviewRequest, backend: SamplingBackend, ctx: InputContext): Promise<CreateMessageResult> {
    return new Promise<CreateMessageResult>((resolve, reject) => {
      if (this.ended || ctx.signal.aborted) return reject(withdrawnError());
      const round = this.entryFor(ctx.round);
      if (round.cancelled) return reject(this.declined(ctx.key, 'the round was cancelled'));
      // Take the placeholder's id, so the webview replaces the placeholder in place.
      const waiting = round.items.get(ctx.key);
      const id = waiting?.kind === 'waiting' ? waiting.id : String(this.nextId++);
      const item: SamplingItem = { id, key: ctx.key, round, detach: () => {}, kind: 'sampling', request, backend, signal: ctx.signal, stage: 'review', settle: resolve, fail: reject };
      this.add(item, ctx.signal);
    });
  }

  /** Show, for transparency, the roots answered automatically (no answer expected). */
  showRoots(roots: ListRootsResult, ctx: InputContext): void {
    if (this.ended || ctx.signal.aborted) return;
    const round = this.entryFor(ctx.round);
    const list = (Array.isArray(roots.roots) ? roots.roots : []).map((r) => ({ uri: String(r.uri), ...(typeof r.name === 'string' ? { name: r.name } : {}) }));
    this.add({ id: String(this.nextId++), key: ctx.key, round, detach: () => {}, kind: 'roots', roots: list }, undefined);
  }

  /** True while some input of this flow still waits for the person. */
  get pending(): boolean {
    return this.rounds.some((r) => [...r.items.values()].some(isPending));
  }

  /** The view the webview shows now (the shown rounds; the newest gives the header). */
  view(): RoundView | undefined {
    const shown = this.rounds.filter((r) => r.shown);
    const last = shown[shown.length - 1];
    if (!last) return undefined;
    const items: ItemView[] = [];
    for (const r of shown) for (const item of this.ordered(r)) items.push(this.itemView(item));
    const { server, method, target, round, era } = last.info;
    return { kind: 'round', server, method, target, round, roundSeq: last.seq, era, items, status: shown.some((r) => [...r.items.values()].some(isPending)) ? 'open' : 'sent' };
  }

  /**
   * Handle a message from the webview. Malformed messages, and messages about inputs that are not
   * pending or not of the right kind, are ignored and logged at debug.
   */
  receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) return this.host.debug(`round panel (flow ${this.flowId}): ignored a message from the webview: ${parsed.reason}`);
    const m = parsed.message;
    switch (m.type) {
      case 'ready':
        return this.render(false);
      case 'submit':
        return this.submit(m.forms);
      case 'cancel':
        return this.cancelAll();
      case 'decline':
        return this.decline(m.id);
      case 'openUrl':
      case 'retryUrl':
        return void this.acceptUrl(m.id, m.type === 'openUrl');
      case 'approve':
        return this.approve(m);
      case 'stop':
        return this.stop(m.id);
      case 'send':
        return this.send(m.id, m.texts);
      default:
        return this.ignore(m, 'not a round panel message');
    }
  }

  /** The person closed the panel: like Cancel (F4, case B). The flow stays, for its next rounds. */
  closedByUser(): void {
    this.cancelAll(false);
  }

  /**
   * The call ended (result, error or cancel): withdraw whatever is still pending (HostError
   * `cancelled`) and close the panel. Later inputs are refused.
   */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const r of this.rounds) {
      r.clearTimer?.();
      for (const item of r.items.values()) this.withdraw(item, false);
    }
    this.rounds.length = 0;
    this.host.close();
  }

  // -------------------------------------------------------------------------------------------

  private entryFor(info: RoundInfo): RoundEntry {
    let entry = this.rounds.find((r) => r.info === info);
    if (entry) return entry;
    entry = { info, seq: this.nextSeq++, items: new Map(), shown: false, cancelled: false };
    // Sampling reviews arrive late (model choice first): hold their place in the server's order.
    for (const input of info.inputs) {
      if (input.method === 'sampling/createMessage') entry.items.set(input.key, { id: String(this.nextId++), key: input.key, round: entry, detach: () => {}, kind: 'waiting', method: input.method });
    }
    this.rounds.push(entry);
    return entry;
  }

  private add(item: Item, signal: AbortSignal | undefined): void {
    const previous = item.round.items.get(item.key);
    if (previous && previous.kind !== 'waiting') this.withdraw(previous, false);
    item.round.items.set(item.key, item);
    // (The signal is not aborted here: elicit and reviewSampling refuse an aborted one.)
    if (signal) item.detach = onAbort(signal, () => this.withdraw(item, true));
    this.changed(item.round);
  }

  /** Show the round when complete (or after the grace time), re-render when already shown. */
  private changed(round: RoundEntry): void {
    if (this.ended) return;
    if (round.shown) return this.render(false);
    const complete = round.info.inputs.every((input) => {
      const item = round.items.get(input.key);
      return input.method === 'sampling/createMessage' || (item !== undefined && item.kind !== 'waiting');
    });
    if (complete) return this.show(round);
    if (!round.clearTimer) {
      const fire = () => {
        round.clearTimer = undefined;
        if (!round.shown && this.rounds.includes(round) && !this.ended) this.show(round);
      };
      if (this.host.setTimer) round.clearTimer = this.host.setTimer(fire, ROUND_GRACE_MS);
      else {
        const t = setTimeout(fire, ROUND_GRACE_MS);
        round.clearTimer = () => clearTimeout(t);
      }
    }
  }

  private show(round: RoundEntry): void {
    round.clearTimer?.();
    round.clearTimer = undefined;
    round.shown = true;
    // Earlier rounds that need nothing more leave the panel: it now shows this round.
    for (const r of this.rounds.slice()) {
      if (r !== round && r.shown && ![...r.items.values()].some(isPending)) this.rounds.splice(this.rounds.indexOf(r), 1);
    }
    const reveal = round.seq > this.shownSeq;
    this.shownSeq = Math.max(this.shownSeq, round.seq);
    this.render(reveal);
  }

  private render(reveal: boolean): void {
    if (this.ended) return;
    const view = this.view();
    if (view) this.host.render(view, reveal);
  }

  /** Items of a round in the server's order (inputs not listed in `round.inputs` last). */
  private ordered(round: RoundEntry): Item[] {
    const order = round.info.inputs.map((i) => i.key);
    const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
    return [...round.items.values()].sort((a, b) => rank(a.key) - rank(b.key));
  }

  private itemView(item: Item): ItemView {
    switch (item.kind) {
      case 'form':
        return { kind: 'form', id: item.id, key: item.key, message: item.message, fields: item.model?.fields ?? [], state: item.state, ...(item.problem ? { problem: item.problem } : {}) };
      case 'url': {
        const a = item.analysis;
        return { kind: 'url', id: item.id, key: item.key, message: item.message, url: a.url, parts: a.parts, warnings: a.warnings, openable: a.openable, repeated: item.repeated, retryable: item.retryable, state: item.state, ...(item.note ? { note: item.note } : {}) };
      }
      case 'sampling': {
        const p = item.request.params as CreateMessageRequestParams & Record<string, unknown>;
        const hints = isRecord(p.modelPreferences) && Array.isArray(p.modelPreferences.hints) ? p.modelPreferences.hints.map((h) => (isRecord(h) && typeof h.name === 'string' ? h.name : '')).filter((n) => n !== '') : [];
        const tools = Array.isArray(p.tools) ? p.tools.filter(isRecord).map((t) => ({ name: String(t.name), ...(typeof t.description === 'string' ? { description: t.description } : {}) })) : [];
        return {
          kind: 'sampling',
          id: item.id,
          key: item.key,
          stage: item.stage,
          ...(typeof p.systemPrompt === 'string' ? { systemPrompt: p.systemPrompt } : {}),
          messages: samplingMessagesView(p),
          ...(typeof p.maxTokens === 'number' ? { maxTokens: p.maxTokens } : {}),
          ...(typeof p.temperature === 'number' ? { temperature: p.temperature } : {}),
          ...(Array.isArray(p.stopSequences) ? { stopSequences: p.stopSequences.filter((s): s is string => typeof s === 'string') } : {}),
          ...(tools.length ? { tools } : {}),
          ...(typeof p.includeContext === 'string' ? { includeContext: p.includeContext } : {}),
          ...(hints.length ? { hints } : {}),
          models: item.request.models.map((m) => ({ ...m })),
          chosenModelId: item.request.chosenModelId,
          ...(item.modelId ? { modelId: item.modelId } : {}),
          ...(item.completion
            ? { completion: { model: String(item.completion.model), ...(typeof item.completion.stopReason === 'string' ? { stopReason: item.completion.stopReason } : {}), blocks: blocksOf(item.completion.content).map(blockView) } }
            : {}),
          ...(item.error ? { error: item.error } : {}),
        };
      }
      case 'roots':
        return { kind: 'roots', id: item.id, key: item.key, roots: item.roots };
      case 'waiting':
        return { kind: 'waiting', id: item.id, key: item.key, method: item.method };
    }
  }

  private findItem(id: string): Item | undefined {
    for (const r of this.rounds) for (const item of r.items.values()) if (item.id === id) return item;
    return undefined;
  }

  private ignore(m: FromWebview, why: string): void {
    this.host.debug(`round panel (flow ${this.flowId}): ignored ${m.type}${'id' in m ? ` for input ${m.id}` : ''}: ${why}`);
  }

  private declined(key: string, why: string): HostError {
    const server = this.rounds[this.rounds.length - 1]?.info.server ?? 'the server';
    return new HostError('declined', `You declined the sampling request "${key}" of ${server} (${why}).`);
  }

  /** Settle an elicitation with the person's answer; remembers URL answers for later rounds. */
  private answer(item: FormItem | UrlItem, result: ElicitResult): void {
    item.state = result.action === 'accept' ? 'accepted' : result.action === 'decline' ? 'declined' : 'cancelled';
    item.detach();
    if (item.kind === 'url') this.urlAnswers.set(item.analysis.url, result.action);
    item.settle(result);
  }

  /** Close one input's UI without an answer from the person (signal aborted, flow ended). */
  private withdraw(item: Item, rerender: boolean): void {
    item.detach();
    if (item.round.items.get(item.key) === item) item.round.items.delete(item.key);
    if (item.kind === 'sampling') item.generation?.abort(withdrawnError());
    if (isPending(item) && (item.kind === 'form' || item.kind === 'url' || item.kind === 'sampling')) item.fail(withdrawnError());
    if (item.kind === 'form' || item.kind === 'url') item.state = 'cancelled';
    if (item.kind === 'sampling') item.stage = 'declined';
    if (rerender) this.render(false);
  }

  /** Submit: every pending form, all or nothing (F1: never an accept that fails the schema). */
  private submit(forms: Record<string, RawValues>): void {
    const pendingForms = this.rounds.filter((r) => r.shown).flatMap((r) => [...r.items.values()]).filter((i): i is FormItem => i.kind === 'form' && i.state === 'pending');
    if (pendingForms.length === 0) return this.host.debug(`round panel (flow ${this.flowId}): ignored submit: no pending form`);
    const results: { item: FormItem; raw: RawFormValues; result: ElicitResult }[] = [];
    let failed = false;
    for (const item of pendingForms) {
      const raw: RawFormValues = forms[item.id] ?? {};
      if (!item.model) {
        failed = true;
        this.host.errors(item.id, { '': item.problem ?? 'This form cannot be answered; decline it.' });
        continue;
      }
      const outcome = buildElicitResult(item.model, 'accept', raw);
      if (!outcome.ok) {
        failed = true;
        this.host.errors(item.id, outcome.errors);
      } else {
        this.host.errors(item.id, {});
        results.push({ item, raw, result: outcome.result as ElicitResult });
      }
    }
    if (failed) return;
    for (const { item, raw, result } of results) {
      // Only the fields of this form are kept for the next round's pre-fill.
      this.previousByKey.set(item.key, Object.fromEntries(item.model!.fields.filter((f) => f.key in raw).map((f) => [f.key, raw[f.key]])));
      this.answer(item, result);
    }
    this.render(false);
  }

  /** Decline one input: `{action: 'decline'}` for elicitations (no content, no validation: F4), HostError for sampling. */
  private decline(id: string): void {
    const item = this.findItem(id);
    if (!item || !isPending(item)) return this.ignore({ type: 'decline', id }, 'no such pending input');
    if (item.kind === 'form' || item.kind === 'url') {
      if (item.kind === 'url' && item.opening) return this.ignore({ type: 'decline', id }, 'the URL is being opened');
      this.answer(item, { action: 'decline' });
    } else if (item.kind === 'sampling') {
      this.rejectSampling(item, 'you pressed Decline');
    } else return this.ignore({ type: 'decline', id }, `a ${item.kind} input cannot be declined`);
    this.render(false);
  }

  private rejectSampling(item: SamplingItem, why: string): void {
    item.generation?.abort(new HostError('cancelled', 'The sampling request was declined.'));
    item.stage = 'declined';
    item.detach();
    item.fail(this.declined(item.key, why));
  }

  /** Cancel (button, Escape) or the panel closed: every pending elicitation answers cancel (F4). */
  private cancelAll(rerender = true): void {
    for (const r of this.rounds) {
      r.cancelled = true;
      for (const item of r.items.values()) {
        if (!isPending(item)) continue;
        if (item.kind === 'form' || item.kind === 'url') this.answer(item, { action: 'cancel' });
        else if (item.kind === 'sampling') this.rejectSampling(item, 'you cancelled the round');
      }
    }
    if (rerender) this.render(false);
  }

  /**
   * Open in browser (F5): only a pending, openable http(s) URL, only once, only after this click.
   * Answers accept once VS Code opened it; if it was not opened (e.g. the person refused VS Code's
   * own prompt), the card stays pending with a note. Retry accepts a re-asked URL without opening it.
   */
  private async acceptUrl(id: string, open: boolean): Promise<void> {
    const type = open ? 'openUrl' : 'retryUrl';
    const item = this.findItem(id);
    if (!item || item.kind !== 'url' || item.state !== 'pending' || item.opening) return this.ignore({ type, id }, 'no such pending URL request');
    if (!open) {
      if (!item.retryable) return this.ignore({ type, id }, 'this URL was not opened before');
      this.answer(item, { action: 'accept' });
      return this.render(false);
    }
    if (!item.analysis.openable) return this.ignore({ type, id }, 'only http(s) URLs can be opened');
    item.opening = true;
    item.note = 'Opening in your browser…';
    this.render(false);
    let opened = false;
    try {
      opened = await this.host.openExternal(item.analysis.url);
    } catch (e) {
      item.note = `The browser could not be opened: ${errorMessage(e)}`;
    }
    item.opening = false;
    if (item.state !== 'pending' || this.ended) return;
    if (opened) {
      item.note = undefined;
      this.answer(item, { action: 'accept' });
    } else if (item.note === 'Opening in your browser…') item.note = 'The page was not opened. You can try again, decline or cancel.';
    this.render(false);
  }

  private approve(m: Extract<FromWebview, { type: 'approve' }>): void {
    const item = this.findItem(m.id);
    if (!item || item.kind !== 'sampling' || item.stage !== 'review') return this.ignore(m, 'no sampling request under review');
    if (!item.request.models.some((x) => x.id === m.modelId)) return this.ignore(m, `model ${JSON.stringify(m.modelId)} is not offered`);
    const { params, rejected } = applySamplingEdits(item.request.params, m.systemPrompt, m.edits);
    if (rejected > 0) this.host.debug(`round panel (flow ${this.flowId}): ${rejected} edit(s) of sampling "${item.key}" did not point at a text block; not applied`);
    const generation = new AbortController();
    item.generation = generation;
    item.stage = 'generating';
    item.modelId = m.modelId;
    item.error = undefined;
    this.render(false);
    item.backend.generate(m.modelId, params, AbortSignal.any([item.signal, generation.signal])).then(
      (result) => {
        if (item.generation !== generation || item.stage !== 'generating') return;
        item.completion = result;
        item.stage = 'completion';
        this.render(false);
      },
      (e: unknown) => {
        if (item.generation !== generation || item.stage !== 'generating') return;
        item.stage = 'review';
        item.error = generation.signal.aborted ? 'Stopped. You can approve again or decline.' : `The model failed: ${errorMessage(e)}`;
        this.render(false);
      },
    );
  }

  private stop(id: string): void {
    const item = this.findItem(id);
    if (!item || item.kind !== 'sampling' || item.stage !== 'generating') return this.ignore({ type: 'stop', id }, 'nothing is generating');
    item.generation?.abort(new HostError('cancelled', 'Stopped by the person.'));
  }

  private send(id: string, texts: string[]): void {
    const item = this.findItem(id);
    if (!item || item.kind !== 'sampling' || item.stage !== 'completion' || !item.completion) return this.ignore({ type: 'send', id, texts }, 'no completion to send');
    const result = applyCompletionEdits(item.completion, texts);
    item.stage = 'sent';
    item.detach();
    item.settle(result);
    this.render(false);
  }
}

// ---------------------------------------------------------------------------------------------
// Tool and prompt arguments

/**
 * The arguments form of one tool or prompt call (`InputUi.collectArguments`): fields from
 * `prepareToolSchema` (tool `inputSchema`, JSON Schema 2020-12; a prompt's string arguments), JSON
 * fields as text; Submit builds the arguments with `buildToolArguments` (ajv against the original
 * schema) and resolves only when they pass. Cancel, Escape, closing the panel or `signal` resolve
 * `undefined`. A schema that cannot be prepared shows its error and offers only Cancel.
 */
export class ArgumentsForm {
  /** The arguments, or `undefined` when the person cancelled. */
  readonly result: Promise<Record<string, unknown> | undefined>;
  /** The raw values of the accepted submit (to pre-fill the next call of the same tool). */
  submitted?: RawValues;
  private readonly prepared?: PreparedToolSchemaOk;
  private readonly problem?: string;
  private done = false;
  private resolve!: (v: Record<string, unknown> | undefined) => void;

  /**
   * @param request what to ask for (server, tool or prompt, schema)
   * @param previous raw values submitted for the same tool or prompt last time
   * @param host the panel
   * @param signal resolves `undefined` and closes the panel when it aborts
   */
  constructor(
    private readonly request: ArgumentsRequest,
    previous: RawValues | undefined,
    private readonly host: PanelHost<ArgumentsView>,
    signal?: AbortSignal,
  ) {
    this.result = new Promise((resolve) => (this.resolve = resolve));
    const prepared = prepareToolSchema(request.schema, previous);
    if (prepared.ok) this.prepared = prepared;
    else this.problem = `The ${request.kind === 'tool' ? "tool's input schema" : "prompt's arguments"} cannot be used: ${prepared.error}`;
    if (signal?.aborted) this.finish(undefined);
    else {
      if (signal) onAbort(signal, () => this.finish(undefined));
      this.host.render(this.view(), true);
    }
  }

  /** What the webview shows. */
  view(): ArgumentsView {
    const r = this.request;
    return {
      kind: 'arguments',
      server: r.server,
      argKind: r.kind,
      name: r.name,
      ...(r.title ? { title: r.title } : {}),
      ...(r.description ? { description: r.description } : {}),
      fields: this.prepared?.fields ?? [],
      ...(this.problem ? { problem: this.problem } : {}),
    };
  }

  /** Handle a message from the webview (only ready, submitArgs and cancel mean something here). */
  receive(raw: unknown): void {
    if (this.done) return;
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) return this.host.debug(`arguments panel (${this.request.name}): ignored a message from the webview: ${parsed.reason}`);
    const m = parsed.message;
    if (m.type === 'ready') return this.host.render(this.view(), false);
    if (m.type === 'cancel') return this.finish(undefined);
    if (m.type !== 'submitArgs') return this.host.debug(`arguments panel (${this.request.name}): ignored ${m.type}: not an arguments message`);
    if (!this.prepared) return this.host.debug(`arguments panel (${this.request.name}): ignored submit: the schema cannot be used`);
    const outcome = buildToolArguments(this.prepared, m.values);
    if (!outcome.ok) return this.host.errors(ARGUMENTS_ID, outcome.errors);
    this.submitted = m.values;
    this.finish(outcome.args);
  }

  /** The person closed the panel: cancel. */
  closedByUser(): void {
    this.finish(undefined, false);
  }

  private finish(args: Record<string, unknown> | undefined, close = true): void {
    if (this.done) return;
    this.done = true;
    this.resolve(args);
    if (close) this.host.close();
  }
}
