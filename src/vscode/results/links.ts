/**
 * What clicking a `resource_link` in a result does (docs/field-cases.md, F12): nothing is fetched by itself.
 * https/http → the full URL shown, opened in the system browser only after consent; a `file://` link
 * inside a workspace folder → opened in an editor; any other URI → read through this host from the
 * server that returned it (MRTR included).
 */
import * as vscode from 'vscode';
import { analyzeUrl } from '../../core/elicitation/urlConsent';

/**
 * Act on a click on `uri`, a link in a result from `server`: confirm then open in the browser
 * (http/https), open in an editor (a `file:` link; confirm first when outside the workspace), or
 * read it through the host (`read`, for any other scheme).
 */
export async function openResourceLink(uri: string, server: string, read: (server: string, uri: string) => Promise<void>): Promise<void> {
  const a = analyzeUrl(uri);
  if (a.openable) {
    const opens = a.href !== a.url ? [`Opens as: ${a.href}`] : [];
    const detail = [`${server} links to:`, a.url, ...opens, `Host: ${a.host}`, ...a.warnings].join('\n');
    const ok = await vscode.window.showWarningMessage('Open this link in your browser?', { modal: true, detail }, 'Open');
    // The address as the host was read (href), so the browser reaches the host that was shown.
    if (ok === 'Open') await vscode.env.openExternal(vscode.Uri.parse(a.href, true));
    return;
  }
  if (uri.startsWith('file:')) {
    const target = vscode.Uri.parse(uri, true);
    const inWorkspace = vscode.workspace.getWorkspaceFolder(target) !== undefined;
    if (!inWorkspace) {
      const ok = await vscode.window.showWarningMessage(
        `${server} links to a file outside your workspace. Open it?`,
        { modal: true, detail: target.fsPath },
        'Open',
      );
      if (ok !== 'Open') return;
    }
    await vscode.window.showTextDocument(target);
    return;
  }
  await read(server, uri);
}
