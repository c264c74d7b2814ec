/**
 * Read-only documents of results: a result's raw JSON ("Open raw"), an embedded resource opened as
 * a document of its type, a prompt's messages. Addressed `mcp-roundtrip:/<n>/<name>`.
 */
import * as vscode from 'vscode';
import { looksLikeMarkdown } from '../../core/results/markdownSniff';

/** The URI scheme of the read-only result documents. */
export const RESULT_SCHEME = 'mcp-roundtrip';

/** Most documents kept open to be read again (older ones read as empty once closed). */
const MAX_DOCUMENTS = 200;

/** Language id for a mime type (resources opened as documents of their type). */
export function languageForMime(mime: string | undefined, text: string): string {
  const m = (mime ?? '').toLowerCase().split(';')[0].trim();
  const known: Record<string, string> = {
    'text/markdown': 'markdown',
    'application/json': 'json',
    'text/html': 'html',
    'text/css': 'css',
    'text/javascript': 'javascript',
    'application/javascript': 'javascript',
    'text/x-python': 'python',
    'application/xml': 'xml',
    'text/xml': 'xml',
    'application/yaml': 'yaml',
    'text/yaml': 'yaml',
    'text/csv': 'csv',
  };
  if (known[m]) return known[m];
  if (m.endsWith('+json')) return 'json';
  if (!m || m === 'text/plain') return looksLikeMarkdown(text) ? 'markdown' : 'plaintext';
  return 'plaintext';
}

/** Read-only documents holding results. */
export class ResultDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, string>();
  private counter = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.path) ?? '';
  }

  /** Open `text` as a read-only document named `name` with `languageId`. */
  async open(name: string, text: string, languageId: string): Promise<void> {
    const safe = name.replace(/[^\w.@-]+/g, '_').slice(0, 80) || 'result';
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${++this.counter}/${safe}` });
    this.docs.set(uri.path, text);
    // Bounded: a long session must not keep every raw result it ever opened.
    if (this.docs.size > MAX_DOCUMENTS) this.docs.delete(this.docs.keys().next().value!);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, languageId);
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  dispose(): void {
    this.registration.dispose();
  }
}
