/**
 * The typed messages between the round panel's extension side and its webview
 * (`media/src/roundPanel/`), defined once for both.
 *
 * Extension → webview: only data ({@link ToWebview}): a full snapshot of what the panel shows
 * ({@link PanelView}) and per-input field errors. The webview renders server strings only through
 * `textContent`, never as HTML.
 *
 * Webview → extension: {@link FromWebview}. The webview is not trusted more than any page: every
 * message goes through the host's check (`parseMessage.ts`: shape, types, sizes) and then through
 * the panel model, which acts only on inputs that are still pending and of the right kind. Unknown or malformed
 * messages are ignored (and logged at debug).
 *
 * No `vscode`, no ajv and no Node import here: this module is bundled into the webview too.
 */
import type { FieldErrors, RawFormValues } from '../../core/elicitation/formModel';
import type { FormField } from '../../core/elicitation/formField';
import type { JsonField } from '../../core/arguments/toolSchema';
import type { OfferedModel } from '../../core/sampling/samplingFlow';
import type { WrittenReplyForm } from '../../core/sampling/writtenReply';

// ---------------------------------------------------------------------------------------------
// Extension → webview: views

/** Where an elicitation stands: still asked, or answered (and how), or withdrawn by the host. */
export type AnswerState = 'pending' | 'accepted' | 'declined' | 'cancelled';

/**
 * A form-mode elicitation (spec: MCP 2026-07-28 "Elicitation", form mode): the fields built by
 * `buildFormModel` (labels, help, required, constraints, `initial` from the default or from what the
 * person typed last round). `problem` is set when the requested schema cannot be shown as a form:
 * then only Decline (or Cancel) can answer it.
 */
export interface FormInputView {
  kind: 'form';
  /** Panel-unique id of this input (keys repeat across rounds; ids never do). */
  id: string;
  /** The `inputRequests` key. */
  key: string;
  /** The server's `message` (why it asks). */
  message: string;
  fields: FormField[];
  problem?: string;
  state: AnswerState;
  /**
   * The app that answers this form instead of its fields (SEP-3118, app-rendered elicitation): its
   * document's URL on the loopback app server, the `ui://` resource, the `elicitation/create` params to
   * send it, and the app host's script (`dist/webview/appCard.js`, set by the webview host). Absent
   * once the person chose the form or the app failed (then `appNote` may say why).
   */
  app?: { url: string; uri: string; params: Record<string, unknown>; script?: string; hostVersion: string };
  /** Why the native form is shown instead of the app (the app failed, timed out, or gave an invalid answer). */
  appNote?: string;
}

/**
 * A URL-mode elicitation (spec: "Elicitation", URL mode; docs/field-cases.md, F5): the full URL as text, split
 * around its host for highlighting, and the warnings of `analyzeUrl`. Never a link: the extension
 * opens it (and only it) after the person clicks "Open in browser".
 */
export interface UrlInputView {
  kind: 'url';
  id: string;
  key: string;
  message: string;
  url: string;
  parts: { before: string; host: string; after: string };
  warnings: string[];
  /** Only parsable http(s) URLs may be opened. */
  openable: boolean;
  /** An earlier round of this call asked for the same URL (shown again, with a note). */
  repeated: boolean;
  /** The person accepted this URL in an earlier round: "Retry" (accept without opening again) is offered. */
  retryable: boolean;
  state: AnswerState;
  /** Set while the extension is asking VS Code to open the URL, or when that failed. */
  note?: string;
}

/** One content block of a sampling message or completion, as data for the card. */
export type BlockView =
  | { kind: 'text'; text: string }
  | { kind: 'image' | 'audio'; mimeType: string; data: string }
  /** tool_use, tool_result and anything else: shown read-only as JSON. */
  | { kind: 'other'; type: string; json: string };

/** One message of a sampling request. */
export interface SamplingMessageView {
  role: string;
  blocks: BlockView[];
}

/** Where a sampling review stands; `writing`: the person writes the reply instead of a model. */
export type SamplingStage = 'review' | 'generating' | 'completion' | 'writing' | 'sent' | 'declined';

/**
 * The sampling review card (spec: "Sampling", human in the loop; docs/field-cases.md, F6): system prompt and
 * messages (text editable), limits, tools, model picker (models that cannot do the request marked,
 * with why); then the completion (editable) to send. "Write the reply" is always offered, and is the
 * only answer when no model can ({@link noModel}).
 */
export interface SamplingInputView {
  kind: 'sampling';
  id: string;
  key: string;
  stage: SamplingStage;
  systemPrompt?: string;
  messages: SamplingMessageView[];
  maxTokens?: number;
  temperature?: number;
  stopSequences?: string[];
  tools?: { name: string; description?: string }[];
  includeContext?: string;
  /** `modelPreferences.hints[].name`, for transparency. */
  hints?: string[];
  /** The allowed models; those that cannot do the request carry `unable` (why). */
  models: OfferedModel[];
  /** The pre-selected model; absent when no model can do the request. */
  chosenModelId?: string;
  /** Why it was proposed (`hint "sonnet"`, ...). */
  chosenBecause?: string;
  /** Why no model can answer (none available, none allowed, none able): only writing the reply, or Decline. */
  noModel?: string;
  /** The form for writing the reply, from the first "Write the reply" on. */
  write?: WrittenReplyForm;
  /** The model that is generating or generated the completion. */
  modelId?: string;
  completion?: { model: string; stopReason?: string; blocks: BlockView[] };
  /** Why the last generation failed or stopped (shown on the card). */
  error?: string;
}

/** Roots answered automatically from the workspace folders, shown for transparency. */
export interface RootsInputView {
  kind: 'roots';
  id: string;
  key: string;
  roots: { uri: string; name?: string }[];
}

/** An input of the round whose UI has not arrived yet (a sampling request still choosing its model). */
export interface WaitingInputView {
  kind: 'waiting';
  id: string;
  key: string;
  method: string;
}

/** Anything a round panel shows, in the server's order. */
export type InputView = FormInputView | UrlInputView | SamplingInputView | RootsInputView | WaitingInputView;

/**
 * The round panel of one call (flow): who asks (server, method and target, round number) and every
 * input of its current round. `status` is `'open'` while something waits for the person, `'sent'`
 * when every input is answered and the host is retrying.
 */
export interface RoundView {
  kind: 'round';
  server: string;
  /** `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** Tool or prompt name, or resource URI. */
  target: string;
  /** 1, 2, ...; 0 for a request a 2025-era server pushed. */
  round: number;
  /** Changes whenever a new round is shown, so the webview knows to move focus to it. */
  roundSeq: number;
  era: 'modern' | 'legacy';
  items: InputView[];
  status: 'open' | 'sent';
  /** Who asked for the call when it was not the person at the palette, e.g. "asked from chat" (a heading). */
  askedFrom?: string;
  /** Set when the server runs the call as a task: its id and status (the header says so). */
  task?: { id: string; status: string; statusMessage?: string };
}

/** A field of the arguments form: a form field, or a JSON-text field. */
export type ArgumentFieldView = FormField | JsonField;

/**
 * The arguments form of a tool (from its full `inputSchema`, via `prepareToolSchema`), prompt or
 * resource template (one string per variable).
 * `problem` is set when the schema cannot be used (network `$ref`, too deep, ...): only Cancel.
 */
export interface ArgumentsView {
  kind: 'arguments';
  server: string;
  argKind: 'tool' | 'prompt' | 'template';
  /** Tool or prompt name; a template's name (its URI template when it has none). */
  name: string;
  /** The server completes the values of the text fields (`completion/complete`): they ask for suggestions ({@link CompleteMessage}). */
  completions?: boolean;
  title?: string;
  description?: string;
  fields: ArgumentFieldView[];
  problem?: string;
  /** The arguments were accepted and the call runs: the form is read-only, and this panel becomes the call's round panel. */
  sent?: boolean;
}

/** What a panel shows. */
export type PanelView = RoundView | ArgumentsView;

/** The id used in {@link ErrorsMessage} for the arguments form. */
export const ARGUMENTS_ID = 'arguments';

/** The full view to render (idempotent: the webview keeps what the person typed in inputs it already shows). */
export interface ViewMessage {
  type: 'view';
  view: PanelView;
}

/** Field problems found by the extension (ajv authority) for one input; `''` holds form-level ones. */
export interface ErrorsMessage {
  type: 'errors';
  /** A {@link FormInputView} id, or {@link ARGUMENTS_ID}. */
  id: string;
  errors: FieldErrors;
}

/** Most suggestions sent for one field (the spec caps a `completion/complete` answer at 100). */
export const MAX_SUGGESTIONS_SHOWN = 100;

/** The server's suggestions for a field of the arguments form, answering the {@link CompleteMessage} of the same `seq`. */
export interface SuggestionsMessage {
  type: 'suggestions';
  key: string;
  seq: number;
  /** At most {@link MAX_SUGGESTIONS_SHOWN}, each cut like other shown text; shown as text only. */
  values: string[];
}

/** Extension → webview. */
export type ToWebview = ViewMessage | ErrorsMessage | SuggestionsMessage;

// ---------------------------------------------------------------------------------------------
// Webview → extension

/** The webview loaded (or reloaded): send the current view. */
export interface ReadyMessage {
  type: 'ready';
}
/** Submit: accept every pending form of the round with these raw values (by item id, then field key). */
export interface SubmitMessage {
  type: 'submit';
  forms: Record<string, RawFormValues>;
}
/** Decline one input (form, URL or sampling). */
export interface DeclineMessage {
  type: 'decline';
  id: string;
}
/** Cancel the round: every pending elicitation answers `cancel` (also Escape). */
export interface CancelMessage {
  type: 'cancel';
}
/** The person clicked "Open in browser" on a URL card. Carries no URL: the extension opens its own copy. */
export interface OpenUrlMessage {
  type: 'openUrl';
  id: string;
}
/** "Retry" on a re-asked URL the person already opened: accept without opening it again. */
export interface RetryUrlMessage {
  type: 'retryUrl';
  id: string;
}
/** One edited text block of a sampling message. */
export interface MessageEdit {
  message: number;
  block: number;
  text: string;
}
/** Approve a sampling request with the chosen model and the edited prompt. */
export interface ApproveMessage {
  type: 'approve';
  id: string;
  modelId: string;
  systemPrompt: string;
  edits: MessageEdit[];
}
/** Stop a generation in progress (the card goes back to review). */
export interface StopMessage {
  type: 'stop';
  id: string;
}
/** Send the (possibly edited) completion; `texts[i]` replaces the i-th text block. */
export interface SendMessage {
  type: 'send';
  id: string;
  texts: string[];
}
/** "Write the reply" (the person answers instead of a model), or back from it to the review. */
export interface WriteMessage {
  type: 'write' | 'back';
  id: string;
}
/** Send the written reply: raw values by `REPLY_KEYS` (`core/sampling/writtenReply.ts`), the tool's by argument key. */
export interface SendReplyMessage {
  type: 'sendReply';
  id: string;
  values: RawFormValues;
  args: RawFormValues;
}
/** Prefix of the {@link ErrorsMessage} keys of a written reply's tool arguments (`arguments/city`). */
export const ARGUMENT_ERROR_PREFIX = 'arguments/';

/** Submit the arguments form (raw values by field key; JSON fields as text). */
export interface SubmitArgumentsMessage {
  type: 'submitArgs';
  values: RawFormValues;
}

/** Longest value or context entry of a suggestion request (what is typed in one field); a longer one is not sent. */
export const MAX_COMPLETE_TEXT = 10_000;
/** Most other fields sent as a suggestion request's context. */
export const MAX_COMPLETE_CONTEXT = 100;

/**
 * Ask for suggestions for a text field of the arguments form (sent while the person types, debounced):
 * `value` is what is typed, `context` the other fields' values; `seq` grows with each request.
 */
export interface CompleteMessage {
  type: 'complete';
  key: string;
  value: string;
  context: Record<string, string>;
  seq: number;
}

/** **Use the Form** on a card that shows an app: the native form instead (SEP-3118). */
export interface UseFormMessage {
  type: 'useForm';
  id: string;
}
/** The app of a form card answered `elicitation/create` (unchecked: the extension checks it against the schema). */
export interface AppAnswerMessage {
  type: 'appAnswer';
  id: string;
  result: Record<string, unknown>;
}
/** The app of a form card could not answer (did not load, timed out, refused the request): the native form, with why. */
export interface AppFailedMessage {
  type: 'appFailed';
  id: string;
  reason: string;
}

/**
 * The page focused an element as it was drawn, yet had not had the focus itself by its load event (the
 * workbench focuses a new page's frame as it shows it only if the frame had the focus then). Sent at most once
 * per page (`media/src/roundPanel/shownFocus.ts`); handled by the webview host itself (`webviewHost.ts`), never
 * by the panel's model.
 */
export interface UnfocusedMessage {
  type: 'unfocused';
}

/** Webview → extension. */
export type FromWebview =
  | ReadyMessage
  | SubmitMessage
  | DeclineMessage
  | CancelMessage
  | OpenUrlMessage
  | RetryUrlMessage
  | ApproveMessage
  | StopMessage
  | SendMessage
  | WriteMessage
  | SendReplyMessage
  | SubmitArgumentsMessage
  | CompleteMessage
  | UseFormMessage
  | AppAnswerMessage
  | AppFailedMessage;
