/**
 * STUB, replaced by the sampling work (issue 6): `sampling/createMessage` through `vscode.lm`.
 */
import type { ClientCapabilities, CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import { HostError } from '../core/errors';
import type { InputContext } from '../core/inputs';
import type { InputUi } from './inputUi';
import type { RoundTripLog } from './log';

/** Answers sampling requests. `capability` is declared to servers only when sampling works. */
export interface Sampler {
  readonly capability: ClientCapabilities['sampling'] | undefined;
  sample(params: CreateMessageRequestParams, ctx: InputContext): Promise<CreateMessageResult>;
}

export function createSampler(_ui: InputUi, _log: RoundTripLog): Sampler {
  return { capability: undefined, sample: () => Promise.reject(new HostError('declined', 'sampling is not available yet')) };
}
