/**
 * Reading a configuration file of the workspace or the profile (`mcp.json`, `mcp-calls.json`): its size
 * checked before a byte is read, and a file that cannot be read is one problem naming it, never a
 * silent absence (only a file that does not exist is nothing to read).
 */
import * as vscode from 'vscode';
import { MAX_CONFIG_FILE_BYTES } from '../../core/util/jsonc';
import { errorMessage } from '../../core/util/errors';

/** The file's text, its absence, or a problem naming it (a sentence for the log and the view). */
export type ConfigFileRead = { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'problem'; problem: string };

/**
 * Read `uri` as UTF-8 text, at most {@link MAX_CONFIG_FILE_BYTES} bytes (a larger file is not read).
 * Never throws.
 */
export async function readConfigFile(uri: vscode.Uri): Promise<ConfigFileRead> {
  let size: number;
  try {
    size = (await vscode.workspace.fs.stat(uri)).size;
  } catch (e) {
    if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return { kind: 'missing' };
    return { kind: 'problem', problem: `${uri.fsPath}: could not be read (${errorMessage(e)})` };
  }
  if (size > MAX_CONFIG_FILE_BYTES) {
    return { kind: 'problem', problem: `${uri.fsPath}: ${size} bytes, larger than the limit of ${MAX_CONFIG_FILE_BYTES} bytes; not read` };
  }
  try {
    return { kind: 'text', text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) };
  } catch (e) {
    return { kind: 'problem', problem: `${uri.fsPath}: could not be read (${errorMessage(e)})` };
  }
}
