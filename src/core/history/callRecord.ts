/**
 * One entry of the call history: what was called (server, method, target, arguments), how it went
 * (status, rounds, times) and each round: what it asked (kinds, keys, the form's fields, the model
 * hints) and how each input was answered (action, fields, by whom, after how long). Plain JSON, so it
 * is stored as is (the workspace's storage in VS Code).
 *
 * Never in a record: a `requestState` (only whether a round carried one, and its length), the value
 * of a secret field (`secrets.ts`), and typed values at all unless the person allowed it.
 *
 * Spec: MCP 2026-07-28 "Multi Round-Trip Requests" (rounds, `inputRequests` keys and kinds).
 */
import type { InputMethod, MrtrMethod } from '../inputs/inputProvider';

/** A field a form asked for: its key, label, JSON type (or format) and whether it is secret. */
export interface AskedField {
  key: string;
  label: string;
  type: string;
  required: boolean;
  secret: boolean;
}

/** How one input was answered. */
export interface AnswerRecord {
  /** `accept`, `decline`, `cancel` (elicitation), `answered` (sampling, roots), `failed`. */
  action: string;
  /** Who answered: `you`, `you (reviewed)`, `auto-approved`, `workspace folders`, `saved answers`, ... */
  by: string;
  /** Time from the round's start to this answer, ms. */
  waitedMs: number;
  /** The fields of an accepted form that were given (keys only). */
  fields?: string[];
  /** The values of an accepted form, only when the setting allows it; secret fields never. */
  values?: Record<string, unknown>;
  /** Sampling: the model that answered, and why it stopped. */
  model?: string;
  stopReason?: string;
  /** Roots: how many were answered. */
  roots?: number;
}

/** One input of a round: what it asked and how it was answered. */
export interface InputRecord {
  /** The `inputRequests` key as the log shows it (one line, bounded). */
  key: string;
  /** The server's key was longer or held control characters: {@link key} is not it (no saved answer can use it). */
  keyCut?: boolean;
  method: InputMethod;
  /** The server's message (form and URL elicitations), bounded. */
  message?: string;
  /** `form` or `url` (elicitation). */
  mode?: 'form' | 'url';
  /** A form's fields, in order. */
  fields?: AskedField[];
  /** A URL elicitation's host (not its full URL: it may carry a one-time code). */
  urlHost?: string;
  /** Sampling: the model hints the server gave, and its token limit. */
  modelHints?: string[];
  maxTokens?: number;
  answer?: AnswerRecord;
}

/** One `input_required` round. */
export interface RoundRecord {
  /** 1, 2, ... */
  round: number;
  /** Time of the leg that answered `input_required`, ms. */
  legMs: number;
  /** Whether the round carried a `requestState`, and its length (never its value). */
  state: { present: boolean; length?: number };
  inputs: InputRecord[];
  /** Inputs of the round past the record's bound: counted, not kept. */
  inputsNotKept?: number;
}

/**
 * Where a call was asked: `palette` (a command of the extension: the palette, the Servers view, a
 * saved call, Run Again), `chat` (`@roundtrip`, the chat participant) or `bridge` (VS Code's own
 * agent, through the bridge).
 */
export type CallOrigin = 'palette' | 'chat' | 'bridge';

/** Every {@link CallOrigin}, for checking a stored value. */
export const CALL_ORIGINS: readonly CallOrigin[] = ['palette', 'chat', 'bridge'];

/** How a call ended. */
export type CallStatus = 'complete' | 'toolError' | 'error' | 'cancelled';

/** One call of the history. */
export interface CallRecord {
  /** The history id (also on the call's first and last line of the round-trip log). */
  id: string;
  server: string;
  method: MrtrMethod;
  /** Tool or prompt name, or resource URI. */
  target: string;
  /** Tool or prompt arguments (secret ones left out, listed in {@link omittedArguments}). */
  arguments?: Record<string, unknown>;
  /** Argument keys left out because they are secret: Run Again asks for them again. */
  omittedArguments?: string[];
  era?: 'modern' | 'legacy';
  /** Where the call was asked; absent in entries kept before it was recorded (they were all `palette`). */
  from?: CallOrigin;
  /** When the call started, ms since the epoch. */
  startedAt: number;
  totalMs: number;
  /** Time spent waiting for the person, ms. */
  waitingMs: number;
  status: CallStatus;
  /** Why it failed (error and cancelled), one bounded line. */
  error?: string;
  rounds: RoundRecord[];
  /** Rounds past the record's bound (in number or in size): counted, not kept. */
  roundsNotKept?: number;
  /** The complete result, when it was small enough to keep (secrets scrubbed). */
  result?: Record<string, unknown>;
  /** Why the result was not kept (too large, ...). */
  resultNote?: string;
}

/** A fresh history id: `h` + time and randomness in base 36 (short, unique enough, no meaning). */
export function newHistoryId(now = Date.now(), random = Math.random): string {
  return `h${now.toString(36)}${Math.floor(random() * 36 ** 3)
    .toString(36)
    .padStart(3, '0')}`;
}
