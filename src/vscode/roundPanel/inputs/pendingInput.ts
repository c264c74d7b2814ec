/**
 * One input of a round as the round panel holds it: its own state machine, what the webview shows of
 * it, and what each message or event does to it. The panel (`../callPanel.ts`) groups inputs by round
 * and routes messages to them by id; it never switches on their kind, so a new kind of input is one
 * new class here (and its card in `media/src/roundPanel/cards`).
 */
import type { FieldErrors } from '../../../core/elicitation/formModel';
import { HostError } from '../../../core/util/errors';
import type { FromWebview, InputView } from '../protocol';

/** The messages about one input (they carry its id). */
export type InputMessage = Extract<FromWebview, { id: string }>;

/** What an input may ask of the panel it is shown in. */
export interface InputPanel {
  /** The call ended: late events (a browser that opened, a model that answered) change nothing. */
  readonly ended: boolean;
  /** The input's view changed: show the panel again. */
  changed(): void;
  /** Log at debug level. */
  debug(text: string): void;
  /** Show field errors of input `id` in the webview (`{}` clears them). */
  errors(id: string, errors: FieldErrors): void;
  /** Open `url` in the system browser (`vscode.env.openExternal`); false when it was not opened. */
  openExternal(url: string): Promise<boolean>;
  /** The server asking (for messages); `undefined` before the first round. */
  readonly server: string | undefined;
}

/** Why a message is ignored when its input cannot take it (or there is no such input). */
export const NOT_FOR_THIS_INPUT: Record<InputMessage['type'], string> = {
  decline: 'no such pending input',
  openUrl: 'no such pending URL request',
  retryUrl: 'no such pending URL request',
  approve: 'no sampling request under review',
  stop: 'nothing is generating',
  send: 'no completion to send',
  write: 'no sampling request to write a reply to',
  back: 'no reply being written',
  sendReply: 'no reply being written',
  useForm: 'no form shown as an app',
  appAnswer: 'no form shown as an app',
  appFailed: 'no form shown as an app',
};

/** The error of an input the call no longer needs (its signal aborted, or the call ended). */
export function withdrawnError(): HostError {
  return new HostError('cancelled', 'The call no longer needs this input.');
}

/** The common part of every input: its ids, and the defaults of an input that takes no message. */
export abstract class PendingInput {
  abstract readonly kind: InputView['kind'];
  /** Removes the listener on the input's signal (set by the panel when it adds the input). */
  detach: () => void = () => {};

  /**
   * @param id panel-unique (keys repeat across rounds; ids never do)
   * @param key the `inputRequests` key
   */
  constructor(
    readonly id: string,
    readonly key: string,
  ) {}

  /** True while the input still waits for the person. */
  abstract get pending(): boolean;

  /** What the webview shows of the input now. */
  abstract view(): InputView;

  /**
   * Handle a message addressed to this input.
   * @returns why it was ignored (logged at debug), or `undefined` when it was handled
   */
  receive(m: InputMessage): string | undefined {
    return m.type === 'decline' && this.pending ? `a ${this.kind} input cannot be declined` : NOT_FOR_THIS_INPUT[m.type];
  }

  /** The person cancelled the round (Cancel, Escape, closed the panel). */
  cancel(): void {}

  /** Close the input's UI without an answer from the person (its signal aborted, the call ended). */
  withdraw(): void {
    this.detach();
  }
}
