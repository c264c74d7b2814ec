/**
 * Results open in the editor, in the result view (`resultPanel.ts`): a header saying what was
 * called and how it went, then each block as what it is; a tool result with `isError` is also
 * reported in a notification. Links never fetch by themselves (docs/field-cases.md, F12 and F13).
 */
import * as vscode from 'vscode';
import { toolResultBlocks } from '../../core/results/resultText';
import type { ShownCall } from '../../core/results/resultViewBuild';
import { notificationText } from '../shared/notificationText';
import { ResultDocuments } from './resultDocuments';
import { openResultPanel, type LinkHandler } from './resultPanel';

/** Shows complete results. */
export class ResultPresenter implements vscode.Disposable {
  readonly documents = new ResultDocuments();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onLink: LinkHandler,
  ) {}

  /** Show one complete result in the result view (and say so when a tool reported an error). */
  async show(call: ShownCall): Promise<void> {
    if (call.method === 'tools/call' && call.result.isError === true) {
      const first = toolResultBlocks(call.result).find((b) => b.kind === 'text') as { text: string } | undefined;
      void vscode.window.showErrorMessage(notificationText(`${call.server} ${call.target}: ${first?.text ?? 'the tool reported an error'}`));
    }
    openResultPanel(this.extensionUri, this.documents, this.onLink, call);
  }

  dispose(): void {
    this.documents.dispose();
  }
}
