/**
 * Results open in the editor: text as read-only virtual documents (Markdown rendered when it is
 * Markdown), prompts as a Markdown document of their messages, resources as documents of their
 * mime type, and a result view for images, audio and links (links never fetch by themselves:
 * `resource_link` items are read through this host on click). See docs/field-cases.md, F12 and F13.
 */
import * as vscode from 'vscode';
import { blockToText, renderBlock, resultToText, toolResultBlocks, type RenderedBlock } from '../../core/results/resultText';
import { nonce } from '../shared/nonce';
import { notificationText } from '../shared/notificationText';

/** The URI scheme of the read-only result documents. */
export const RESULT_SCHEME = 'mcp-roundtrip';

/** What a link click in the result view asks the host to do. */
export type LinkHandler = (uri: string, server: string) => void;

const MARKDOWN = /^#{1,6} |^\s*[-*] \S|^```|\*\*[^*\n]+\*\*|\[[^\]\n]+\]\([^)\n]+\)/m;

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
  if (!m || m === 'text/plain') return MARKDOWN.test(text) ? 'markdown' : 'plaintext';
  return 'plaintext';
}

/** Read-only documents holding results, addressed `mcp-roundtrip:/<n>/<name>`. */
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

  /** Open `text` as a read-only document named `name` with `languageId`; Markdown also previewed. */
  async open(name: string, text: string, languageId: string): Promise<void> {
    const safe = name.replace(/[^\w.@-]+/g, '_').slice(0, 80) || 'result';
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${++this.counter}/${safe}` });
    this.docs.set(uri.path, text);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, languageId);
    await vscode.window.showTextDocument(doc, { preview: false });
    if (languageId === 'markdown') await vscode.commands.executeCommand('markdown.showPreviewToSide', uri).then(undefined, () => undefined);
  }

  dispose(): void {
    this.registration.dispose();
  }
}

/** Shows complete results. */
export class ResultPresenter implements vscode.Disposable {
  readonly documents = new ResultDocuments();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onLink: LinkHandler,
  ) {}

  /**
   * Show one complete result of `method` for `target` from `server`.
   * Rich blocks (images, audio, links, binary resources) open the result view; text opens a document.
   */
  async show(server: string, method: 'tools/call' | 'prompts/get' | 'resources/read', target: string, result: Record<string, unknown>): Promise<void> {
    if (method === 'tools/call') {
      const blocks = toolResultBlocks(result);
      if (result.isError === true) {
        const first = blocks.find((b) => b.kind === 'text') as { text: string } | undefined;
        void vscode.window.showErrorMessage(notificationText(`${server} ${target}: ${first?.text ?? 'the tool reported an error'}`));
      }
      if (blocks.some((b) => b.kind === 'image' || b.kind === 'audio' || b.kind === 'link' || (b.kind === 'resource' && b.blob !== undefined))) {
        return this.openView(server, target, blocks, result.isError === true);
      }
      const text = resultToText(method, result);
      const onlyStructured = blocks.length === 1 && blocks[0].kind === 'structured';
      return this.documents.open(`${target}.result`, text, onlyStructured ? 'json' : languageForMime(undefined, text));
    }
    if (method === 'prompts/get') {
      const msgs = Array.isArray(result.messages) ? (result.messages as { content: unknown }[]) : [];
      const rich = msgs.map((m) => renderBlock(m.content)).filter((b) => b.kind === 'image' || b.kind === 'audio' || b.kind === 'link');
      if (rich.length) void this.openView(server, target, rich, false);
      return this.documents.open(`${target}.prompt.md`, `# Prompt ${target} (${server})\n\n${resultToText(method, result)}\n`, 'markdown');
    }
    const contents = Array.isArray(result.contents) ? (result.contents as Record<string, unknown>[]) : [];
    for (const c of contents) {
      if (typeof c.text === 'string') await this.documents.open(String(c.uri ?? target).split('/').pop() ?? 'resource', c.text, languageForMime(c.mimeType as string | undefined, c.text));
      else if (typeof c.blob === 'string') {
        const mime = String(c.mimeType ?? 'application/octet-stream');
        const kind = mime.startsWith('image/') ? 'image' : mime.startsWith('audio/') ? 'audio' : undefined;
        const block: RenderedBlock = kind ? { kind, mimeType: mime, data: c.blob } : { kind: 'resource', uri: String(c.uri ?? target), mimeType: mime, blob: c.blob };
        await this.openView(server, target, [block], false);
      }
    }
    if (!contents.length) await this.documents.open(`${target}.txt`, '(the resource has no contents)', 'plaintext');
  }

  /** The result view: a webview rendering blocks from data (server text only via textContent). */
  private async openView(server: string, target: string, blocks: RenderedBlock[], isError: boolean): Promise<void> {
    const panel = vscode.window.createWebviewPanel('mcpRoundtrip.result', `${target} — ${server}`, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    });
    const n = nonce();
    const script = panel.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'resultView.js'));
    const css = panel.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'resultView.css'));
    panel.webview.html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; media-src data:; style-src ${panel.webview.cspSource}; script-src 'nonce-${n}';">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="${css}"><title>Result</title></head>
<body><main id="root" aria-live="polite"></main><script nonce="${n}" src="${script}"></script></body></html>`;
    const links = new Set(blocks.filter((b): b is Extract<RenderedBlock, { kind: 'link' }> => b.kind === 'link').map((b) => b.uri));
    panel.webview.onDidReceiveMessage((m: unknown) => {
      // Only the one message we expect, and only for a link this result really contains.
      const msg = m as { type?: unknown; uri?: unknown };
      if (msg?.type === 'openLink' && typeof msg.uri === 'string' && links.has(msg.uri)) this.onLink(msg.uri, server);
    });
    await panel.webview.postMessage({ type: 'render', server, target, isError, blocks: blocks.map((b) => (b.kind === 'structured' ? { kind: 'text', text: blockToText(b), mono: true } : b)) });
  }

  dispose(): void {
    this.documents.dispose();
  }
}
