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

  /** @param warn the log's warning (why a result view's script or stylesheet is loaded by URI) */
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onLink: LinkHandler,
    private readonly warn?: (text: string) => void,
  ) {}

  /** Show one complete result in the result view (and say so when a tool reported an error). */
  async show(call: ShownCall): Promise<void> {
    this.notifyError(call);
    openResultPanel(this.extensionUri, this.documents, this.onLink, call, this.warn);
  }

  /** Say in a notification that the tool reported an error (`isError`), with its first text; nothing otherwise. */
  notifyError(call: ShownCall): void {
    if (call.method !== 'tools/call' || call.result.isError !== true) return;
    const first = toolResultBlocks(call.result).find((b) => b.kind === 'text') as { text: string } | undefined;
    void vscode.window.showErrorMessage(
      notificationText(`${call.server} ${call.target}: ${first?.text ?? vscode.l10n.t('the tool reported an error')}`),
    );
  }

  dispose(): void {
    this.documents.dispose();
  }
}
