/**
 * The saved calls of the open workspace folders: each folder's `.vscode/mcp-calls.json` (the core's
 * `savedCalls.ts` format, shared with the CLI's `run <name>`), read again when a file changes; a
 * broken file is reported once with its path and what is wrong, the other calls still load. In an
 * untrusted workspace no file is read (its calls are neither listed nor run) until trust is granted.
 */
import * as vscode from 'vscode';
import { parseSavedCalls, SAVED_CALLS_FILE, withSavedCall, type SavedCall } from '../../core/history/savedCalls';
import { readConfigFile } from '../shared/configFile';
import type { RoundTripLog } from '../shared/roundTripLog';
import { notificationText } from '../shared/notificationText';

/** The saved calls of every workspace folder. */
export class SavedCallsFiles implements vscode.Disposable {
  private calls: SavedCall[] = [];
  private problems: string[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  readonly onDidChange = this.changed.event;

  constructor(private readonly log: RoundTripLog) {
    const w = vscode.workspace.createFileSystemWatcher(`**/${SAVED_CALLS_FILE}`);
    const reload = () => void this.reload();
    this.disposables.push(
      w,
      w.onDidChange(reload),
      w.onDidCreate(reload),
      w.onDidDelete(reload),
      vscode.workspace.onDidChangeWorkspaceFolders(reload),
      vscode.workspace.onDidGrantWorkspaceTrust(reload),
      this.changed,
    );
  }

  /** Every saved call, folder by folder, in file order. */
  list(): readonly SavedCall[] {
    return this.calls;
  }

  /** One sentence per file that could not be read or parsed, as logged (the Servers view shows them). */
  fileProblems(): readonly string[] {
    return this.problems;
  }

  /** The saved calls of one server. */
  forServer(server: string): SavedCall[] {
    return this.calls.filter((c) => c.server === server);
  }

  /** The file of a workspace folder. */
  static fileOf(folder: vscode.WorkspaceFolder): vscode.Uri {
    return vscode.Uri.joinPath(folder.uri, ...SAVED_CALLS_FILE.split('/'));
  }

  /** Read every folder's file again (none in an untrusted workspace: a file there does nothing at all). */
  async reload(): Promise<void> {
    const calls: SavedCall[] = [];
    const problems: string[] = [];
    for (const folder of vscode.workspace.isTrusted ? (vscode.workspace.workspaceFolders ?? []) : []) {
      const uri = SavedCallsFiles.fileOf(folder);
      const read = await readConfigFile(uri);
      if (read.kind === 'missing') continue;
      if (read.kind === 'problem') {
        problems.push(read.problem);
        continue;
      }
      const parsed = parseSavedCalls(read.text, uri.fsPath);
      calls.push(...parsed.calls.map((c) => ({ ...c, folder: folder.uri.fsPath })));
      problems.push(...parsed.errors);
    }
    const fresh = problems.filter((p) => !this.problems.includes(p));
    [this.calls, this.problems] = [calls, problems];
    for (const p of fresh) {
      this.log.warn(p);
      void vscode.window.showWarningMessage(notificationText(`MCP Roundtrip: ${p}`, 600));
    }
    this.changed.fire();
  }

  /**
   * Add (or replace) the call `name` in `folder`'s file, keeping the rest of the file as written.
   * @throws Error when the file exists but is not a valid saved-calls file (it is never overwritten)
   */
  async save(folder: vscode.WorkspaceFolder, name: string, json: Record<string, unknown>): Promise<vscode.Uri> {
    const uri = SavedCallsFiles.fileOf(folder);
    const read = await readConfigFile(uri);
    if (read.kind === 'problem') throw new Error(`${read.problem}; fix it (or remove it) first`);
    const text = read.kind === 'text' ? read.text : undefined;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(withSavedCall(text, name, json)));
    await this.reload();
    return uri;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
