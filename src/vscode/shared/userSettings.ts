/**
 * Settings that decide what is kept or shown of a person's data (sampling without review, wire
 * logging, typed values in the history): read from the person's user settings only. A cloned
 * repository's `.vscode/settings.json` may pre-fill other settings; these it must not decide, trusted
 * or not (VS Code's Restricted Mode covers untrusted workspaces only).
 */
import * as vscode from 'vscode';

/**
 * The user settings' value of `mcpRoundtrip.<key>` (e.g. `'log.wire'`), `undefined` when the person
 * set none; a workspace's or folder's value is never read.
 */
export function userSetting(key: string): unknown {
  return vscode.workspace.getConfiguration('mcpRoundtrip').inspect<unknown>(key)?.globalValue;
}
