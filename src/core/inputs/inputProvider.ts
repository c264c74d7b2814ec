/**
 * The contract between the MRTR driver and whoever answers a server's input requests
 * (a person through the VS Code round panel, scripted answers in the CLI, a test).
 *
 * Spec: MCP 2026-07-28, "Multi Round-Trip Requests" (input requests embedded in
 * `input_required` results) and, for 2025-era servers, the server-to-client requests
 * `elicitation/create`, `sampling/createMessage` and `roots/list`. Both go through the same provider.
 */
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
} from '@modelcontextprotocol/client';
import type { Awaitable } from '../util/async';

/** The three MRTR methods: the only ones allowed to answer `input_required` (spec: MRTR). */
export const MRTR_METHODS = ['tools/call', 'prompts/get', 'resources/read'] as const;
/** `tools/call`, `prompts/get` or `resources/read`. */
export type MrtrMethod = (typeof MRTR_METHODS)[number];

/** The three request kinds a server may embed in `inputRequests` (spec: MRTR, InputRequest). */
export const INPUT_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;
/** `elicitation/create`, `sampling/createMessage` or `roots/list`. */
export type InputMethod = (typeof INPUT_METHODS)[number];

/** One pending input of a round, as the server sent it. */
export interface InputRequestEntry {
  /** The `inputRequests` key; the matching answer goes under the same key in `inputResponses`. */
  key: string;
  method: InputMethod;
  params: Record<string, unknown>;
}

/**
 * The round an input belongs to. One object per round, shared by every input of that round,
 * so an adapter can show all of a round's inputs together (one panel per round).
 */
export interface RoundInfo {
  /** Host-unique id of the call (all rounds of one call share it). */
  flowId: number;
  /** Display name of the server asking. */
  server: string;
  /** The MRTR method of the call. */
  method: MrtrMethod;
  /** Tool or prompt name, or resource URI. */
  target: string;
  /** 1 for the first `input_required`, 2 for the next, ... */
  round: number;
  /** Every input of this round, in the server's order. */
  inputs: readonly InputRequestEntry[];
  /** `'legacy'` when a 2025-era server pushed the request as a real JSON-RPC request. */
  era: 'modern' | 'legacy';
  /**
   * Set when the inputs are a task's (the server runs the call as a task, `core/tasks`): its id and
   * status as last read, for a header that says so.
   */
  task?: { id: string; status: string; statusMessage?: string };
}

/** Context given with each input: which round, which key, and a signal that aborts when the call is cancelled. */
export interface InputContext {
  round: RoundInfo;
  /** The `inputRequests` key (for a 2025-era pushed request: its JSON-RPC id as a string). */
  key: string;
  /** Aborted when the call is cancelled, times out, or another input of the round failed. Close any UI. */
  signal: AbortSignal;
  /**
   * Values a form may open with (a saved call's answer for this key): only ever shown as initial
   * values for the person to check and submit, never sent as an answer by themselves.
   */
  prefill?: Readonly<Record<string, unknown>>;
}

/**
 * Answers the server's input requests. Methods may take as long as a person needs (that time is not
 * counted against the call's time limit). To refuse outright (the person declined a sampling request),
 * throw a `HostError` of kind `declined` or another kind: the call ends with that error and no retry
 * is sent.
 */
export interface InputProvider {
  /** The client capabilities to declare: exactly what this provider can answer (spec: capabilities). */
  readonly capabilities: ClientCapabilities;
  /** Answer an `elicitation/create` (form or URL mode). Decline/cancel are answers, not errors. */
  elicit(params: ElicitRequestParams, ctx: InputContext): Promise<ElicitResult>;
  /** Answer a `sampling/createMessage`. */
  sample(params: CreateMessageRequestParams, ctx: InputContext): Promise<CreateMessageResult>;
  /**
   * Answer a `roots/list`. Roots at hand (the workspace folders) may be returned as they are: when
   * every input of a round is answered so, the retry is written in the same turn (a wrapper that
   * awaits, such as the chat's panel queue, gives a promise again, and the round waits one turn).
   */
  listRoots(ctx: InputContext): Awaitable<ListRootsResult>;
  /**
   * Optional: resolves once the person says they are done at the URL of an accepted URL elicitation
   * that a URLElicitationRequiredError (-32042) asked for, before the call is sent again (the server's
   * `notifications/elicitation/complete` ends the wait too). Without it the call is sent again at once.
   * @throws HostError `cancelled` when the person cancels instead
   */
  urlDone?(params: ElicitRequestParams, ctx: InputContext): Promise<void>;
}

/** A provider that answers nothing and declares no capability (listing, or servers that need no input). */
export const NO_INPUTS: InputProvider = {
  capabilities: {},
  elicit: () => Promise.reject(new Error('elicitation is not supported by this host')),
  sample: () => Promise.reject(new Error('sampling is not supported by this host')),
  listRoots: () => Promise.reject(new Error('roots are not supported by this host')),
};
