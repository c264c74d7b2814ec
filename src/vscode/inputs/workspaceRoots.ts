/**
 * Workspace folders → `roots/list` answer. `file` folders become `file://` URIs built by Node
 * (never VS Code's `Uri.toString()`, which encodes a drive colon as `%3A`: docs/field-cases.md, F7); other
 * schemes (remote, virtual) are passed as their URI and noted. No folder open → an empty list.
 * Typed structurally (no `vscode` import) so it is testable under Node.
 *
 * Spec: MCP 2026-07-28 "Roots".
 */
import type { ListRootsResult } from '@modelcontextprotocol/client';
import { rootFromPath } from '../../core/config/roots';

/** The parts of `vscode.WorkspaceFolder` used here. */
export interface FolderLike {
  name: string;
  uri: { scheme: string; fsPath: string; toString(): string };
}

/**
 * @param folders `vscode.workspace.workspaceFolders` (undefined when none is open)
 * @param windows use Windows path semantics (default: the running platform)
 * @returns the answer and notes for the log (non-file folders, no folder open)
 */
export function workspaceRoots(
  folders: readonly FolderLike[] | undefined,
  windows = process.platform === 'win32',
): { result: ListRootsResult; notes: string[] } {
  const notes: string[] = [];
  if (!folders?.length) return { result: { roots: [] }, notes: ['roots/list: no folder is open, answered with an empty list'] };
  const roots = folders.map((f) => {
    if (f.uri.scheme === 'file') return rootFromPath(f.uri.fsPath, windows, f.name);
    notes.push(`roots/list: folder "${f.name}" is not on the local disk (${f.uri.scheme}:); passed as ${f.uri.toString()}`);
    return { uri: f.uri.toString(), name: f.name };
  });
  return { result: { roots }, notes };
}
