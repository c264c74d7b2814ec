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
    const opens = a.href !== a.url ? [vscode.l10n.t('Opens as: {0}', a.href)] : [];
    const detail = [vscode.l10n.t('{0} links to:', server), a.url, ...opens, vscode.l10n.t('Host: {0}', a.host), ...a.warnings].join('\n');
    const open = vscode.l10n.t('Open');
    const ok = await vscode.window.showWarningMessage(vscode.l10n.t('Open this link in your browser?'), { modal: true, detail }, open);
    // The address as the host was read (href), so the browser reaches the host that was shown.
    if (ok === open) await vscode.env.openExternal(vscode.Uri.parse(a.href, true));
    return;
  }
  if (uri.startsWith('file:')) {
    const target = vscode.Uri.parse(uri, true);
    const inWorkspace = vscode.workspace.getWorkspaceFolder(target) !== undefined;
    if (!inWorkspace) {
      const open = vscode.l10n.t('Open');
      const ok = await vscode.window.showWarningMessage(
        vscode.l10n.t('{0} links to a file outside your workspace. Open it?', server),
        { modal: true, detail: target.fsPath },
        open,
      );
      if (ok !== open) return;
    }
    await vscode.window.showTextDocument(target);
    return;
  }
  await read(server, uri);
}
