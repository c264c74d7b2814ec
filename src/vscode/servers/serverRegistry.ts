/**
 * Every server the host knows, from the sources `serverSources.ts` reads (the built-in demo, the
 * `mcpRoundtrip.servers` setting, the profile's and the workspace folders' `mcp.json`). Edits apply without a
 * reload; a broken file is reported with its path and the other servers keep working; workspace
 * servers are held back in an untrusted workspace (`nextEntries.ts`). Connections are created lazily, on first use.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readConfigFile } from '../shared/configFile';
import { withListChanges, type ConnectionOptions } from '../../core/connection/connectionOptions';
import { ServerConnection } from '../../core/connection/serverConnection';
import type { ServerSpec } from '../../core/connection/serverSpec';
import { resolveServer } from '../../core/config/servers';
import { InputValues } from './inputValues';
import { nextEntries } from './nextEntries';
import type { ServerEntry } from './serverEntry';
import { readDefinitions, userMcpJsonPath } from './serverSources';
import type { RoundTripLog } from '../shared/roundTripLog';
import { notificationText } from '../shared/notificationText';

/** How long the list changes of a burst are gathered into one view refresh, ms. */
const LIST_CHANGE_BURST_MS = 250;

/** The servers by name, reloaded when their sources change; each one's connection made on first use. */
export class ServerRegistry implements vscode.Disposable {
  private entries = new Map<string, ServerEntry>();
  private readonly inputValues: InputValues;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Pending view refresh after a server's list changes ({@link listsChanged}). */
  private listChangeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Problems of the last reload (file + message). */
  problems: string[] = [];
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: RoundTripLog,
    private readonly connectionOptions: () => ConnectionOptions,
  ) {
    this.inputValues = new InputValues(context.secrets);
    const reload = () => void this.reload();
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('mcpRoundtrip') && reload()),
      vscode.workspace.onDidChangeWorkspaceFolders(reload),
      vscode.workspace.onDidGrantWorkspaceTrust(reload),
    );
    const watch = (pattern: vscode.GlobPattern) => {
      const w = vscode.workspace.createFileSystemWatcher(pattern);
      w.onDidChange(reload);
      w.onDidCreate(reload);
      w.onDidDelete(reload);
      this.disposables.push(w);
    };
    watch('**/.vscode/mcp.json');
    const userFile = userMcpJsonPath(context);
    watch(new vscode.RelativePattern(vscode.Uri.file(path.dirname(userFile)), 'mcp.json'));
  }

  /** All servers, demo first, then settings, user file, workspace files. */
  list(): ServerEntry[] {
    return [...this.entries.values()];
  }

  get(name: string): ServerEntry | undefined {
    return this.entries.get(name);
  }

  /**
   * Re-read every source. Unchanged definitions keep their connection; changed or removed ones are
   * closed. Problems are logged and shown once with the file's path.
   */
  async reload(): Promise<void> {
    const { defs, problems, inputs } = await readDefinitions(this.context);
    this.inputValues.define(inputs);
    const next = nextEntries(this.entries, defs, problems, vscode.workspace.isTrusted);
    this.entries = next;
    const fresh = problems.filter((p) => !this.problems.includes(p));
    this.problems = problems;
    for (const p of fresh) {
      this.log.error(p);
      void vscode.window.showErrorMessage(notificationText(`MCP Roundtrip: ${p}`, 600));
    }
    for (const e of next.values()) if (e.heldBack) this.log.warn(`[${e.name}] ${e.heldBack}`);
    this.changed.fire();
  }

  /**
   * The connection of a server, creating it on first use (variables resolved, inputs asked once).
   * @throws Error saying why the server cannot be used (untrusted, bad configuration)
   */
  async connection(entry: ServerEntry): Promise<ServerConnection> {
    if (entry.connection) return entry.connection;
    const spec = await this.spec(entry);
    // Another caller may have made it while the definition was being resolved: there is one per server.
    // The server's word that its tools, prompts or resources changed refreshes the view (it lists them again).
    entry.connection ??= new ServerConnection(
      spec,
      withListChanges(this.connectionOptions(), () => this.listsChanged()),
    );
    return entry.connection;
  }

  /**
   * The server's definition resolved to what a connection needs (variables substituted, `${input:}`
   * values asked once, `envFile` read), without connecting.
   * @throws Error when the server is held back (untrusted workspace) or its definition cannot be resolved
   *   (the error is also kept on the entry and shown in the view)
   */
  async spec(entry: ServerEntry): Promise<ServerSpec> {
    if (entry.heldBack) throw new Error(`${entry.name}: ${entry.heldBack}`);
    try {
      const spec = await resolveServer(entry.def, {
        workspaceFolder: entry.def.source.workspaceFolder ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
        userHome: os.homedir(),
        env: process.env,
        resolveInput: (id) => this.inputValues.resolve(id),
        readFile: async (p) => {
          // An envFile is a configuration file too: its size checked before it is read.
          const read = await readConfigFile(vscode.Uri.file(p));
          if (read.kind === 'text') return read.text;
          throw new Error(read.kind === 'missing' ? `envFile ${p} does not exist` : `envFile ${read.problem}`);
        },
      });
      entry.error = undefined;
      return spec;
    } catch (e) {
      entry.error = (e as Error).message;
      this.log.error(`[${entry.name}] configuration problem: ${entry.error}`);
      this.changed.fire();
      throw e;
    }
  }

  /**
   * A server said its tools, prompts or resources changed: the view is told once for a burst (a
   * server may say it for each tool it adds at start), so it lists them again once.
   */
  private listsChanged(): void {
    if (this.listChangeTimer) return;
    this.listChangeTimer = setTimeout(() => {
      this.listChangeTimer = undefined;
      this.changed.fire();
    }, LIST_CHANGE_BURST_MS);
  }

  /** Tell listeners (the view) that a server's state changed. */
  touch(): void {
    this.changed.fire();
  }

  dispose(): void {
    clearTimeout(this.listChangeTimer);
    for (const e of this.entries.values()) void e.connection?.close();
    for (const d of this.disposables) d.dispose();
  }
}
