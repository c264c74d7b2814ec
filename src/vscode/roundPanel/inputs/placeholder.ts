/**
 * The place of a sampling request in its round until its review arrives: the sampler first chooses a
 * model (one request per server at a time), so the round is shown without waiting for it, and the
 * review then takes this placeholder's id to replace it in place.
 */
import type { WaitingInputView } from '../protocol';
import { PendingInput } from './pendingInput';

/** Stands for a sampling review on its way; pending, takes no message. */
export class Placeholder extends PendingInput {
  readonly kind = 'waiting';

  /** @param method the input's method (`sampling/createMessage`) */
  constructor(
    id: string,
    key: string,
    private readonly method: string,
  ) {
    super(id, key);
  }

  /** Pending: the input it stands for still waits for the person. */
  get pending(): boolean {
    return true;
  }

  view(): WaitingInputView {
    return { kind: 'waiting', id: this.id, key: this.key, method: this.method };
  }
}
