/**
 * A URL-mode elicitation in the round panel: the full URL, its host and warnings (`analyzeUrl`);
 * "Open in browser" opens the panel's own copy of the URL, only once, only after the click, and
 * answers accept once it opened; "Retry" accepts a URL the person already opened in an earlier round.
 *
 * Spec: MCP 2026-07-28 "Elicitation", URL mode: never open or prefetch without consent; offer manual
 * retry and cancel when asked again (docs/field-cases.md, F5).
 */
import type { ElicitResult } from '@modelcontextprotocol/client';
import { analyzeUrl, type UrlAnalysis } from '../../../core/elicitation/urlConsent';
import { errorMessage } from '../../../core/util/errors';
import type { UrlInputView } from '../protocol';
import { ElicitationInput, type ElicitationSettle } from './elicitationInput';
import type { InputMessage, InputPanel } from './pendingInput';

const OPENING = 'Opening in your browser…';

/** A pending URL consent: the analysed URL, whether it is being opened, and a note for the card. */
export class UrlInput extends ElicitationInput {
  readonly kind = 'url';
  readonly analysis: UrlAnalysis;
  /** True from the click until `openExternal` settles: a second click must not open it twice. */
  private opening = false;
  private note?: string;

  /**
   * @param before the person's answer to the same URL in an earlier round of the call, if any
   * @param onAnswer remembers each answer for later rounds
   */
  constructor(
    id: string,
    key: string,
    message: string,
    url: string,
    private readonly before: ElicitResult['action'] | undefined,
    private readonly onAnswer: (url: string, action: ElicitResult['action']) => void,
    settlement: ElicitationSettle,
    panel: InputPanel,
  ) {
    super(id, key, message, settlement, panel);
    this.analysis = analyzeUrl(url);
  }

  private get retryable(): boolean {
    return this.before === 'accept';
  }

  view(): UrlInputView {
    const a = this.analysis;
    return {
      kind: 'url',
      id: this.id,
      key: this.key,
      message: this.message,
      url: a.url,
      parts: a.parts,
      warnings: a.warnings,
      openable: a.openable,
      repeated: this.before !== undefined,
      retryable: this.retryable,
      state: this.state,
      ...(this.note ? { note: this.note } : {}),
    };
  }

  protected override answered(result: ElicitResult): void {
    this.onAnswer(this.analysis.url, result.action);
  }

  override receive(m: InputMessage): string | undefined {
    if (m.type === 'decline' && this.pending && this.opening) return 'the URL is being opened';
    if (m.type !== 'openUrl' && m.type !== 'retryUrl') return super.receive(m);
    if (!this.pending || this.opening) return 'no such pending URL request';
    if (m.type === 'retryUrl') {
      if (!this.retryable) return 'this URL was not opened before';
      this.answer({ action: 'accept' });
      this.panel.changed();
      return undefined;
    }
    if (!this.analysis.openable) return 'only http(s) URLs can be opened';
    void this.open();
    return undefined;
  }

  /**
   * Open the URL; answer accept once VS Code opened it. Not opened (e.g. the person refused VS Code's
   * own prompt): the card stays pending with a note.
   */
  private async open(): Promise<void> {
    this.opening = true;
    this.note = OPENING;
    this.panel.changed();
    let opened = false;
    try {
      // The address as its host was read and shown (href), not the raw text a browser may read otherwise.
      opened = await this.panel.openExternal(this.analysis.href);
    } catch (e) {
      this.note = `The browser could not be opened: ${errorMessage(e)}`;
    }
    this.opening = false;
    if (this.state !== 'pending' || this.panel.ended) return;
    if (opened) {
      this.note = undefined;
      this.answer({ action: 'accept' });
    } else if (this.note === OPENING) this.note = 'The page was not opened. You can try again, decline or cancel.';
    this.panel.changed();
  }
}
