/**
 * STUB, replaced by the round panel work (issue 5): the webview panel implementing {@link InputUi}.
 */
import * as vscode from 'vscode';
import { HostError } from '../core/errors';
import type { InputUi } from './inputUi';
import type { RoundTripLog } from './log';

/** Create the round panels (one webview panel per call). */
export function createRoundPanels(_context: vscode.ExtensionContext, _log: RoundTripLog): InputUi & vscode.Disposable {
  const no = () => Promise.reject(new HostError('declined', 'the round panel is not available yet'));
  return { elicit: no, reviewSampling: no, showRoots: () => {}, collectArguments: async () => ({}), endFlow: () => {}, dispose: () => {} };
}
