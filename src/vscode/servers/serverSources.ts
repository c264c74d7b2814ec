/**
 * Where server definitions come from, in this order: (1) the built-in demo, (2) the
 * `mcpRoundtrip.servers` setting (user, then workspace), (3) the profile's `mcp.json` and each
 * workspace folder's `.vscode/mcp.json`, the files VS Code already uses.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseServerFile, readServers, type InputDefinition, type ServerDefinition } from '../../core/config/servers';
import { readConfigFile } from '../shared/configFile';
import { userSetting } from '../shared/userSettings';

/** The demo server's definition: the bundled `dist/demo-server.js` run by the editor's own Node. */
export function demoDefinition(extensionPath: string): ServerDefinition {
  return {
    name: 'demo',
    type: 'stdio',
    command: process.execPath,
    args: [path.join(extensionPath, 'dist', 'demo-server.js')],
    env: { ELECTRON_RUN_AS_NODE: '1' },
    source: { kind: 'demo', location: 'built-in demo server' },
  };
}

/** Where the profile's `mcp.json` lives: `<user data>/User/mcp.json`, next to settings.json. */
export function userMcpJsonPath(context: vscode.ExtensionContext): string {
  // globalStorageUri = <user data>/User/globalStorage/<extension id>
  return path.join(context.globalStorageUri.fsPath, '..', '..', 'mcp.json');
}

/** Every definition, the problems found (file or setting, and what is wrong), and the `inputs` of the files. */
export interface Definitions {
  defs: ServerDefinition[];
  problems: string[];
  inputs: InputDefinition[];
}

/** Read every source (a file that does not exist is skipped; a broken one is a problem, the others still load). */
export async function readDefinitions(context: vscode.ExtensionContext): Promise<Definitions> {
  const defs: ServerDefinition[] = [];
  const problems: string[] = [];
  const inputs: InputDefinition[] = [];
  const config = vscode.workspace.getConfiguration('mcpRoundtrip');
  // The person's own choice: a workspace cannot hide the demo (README, security).
  if (userSetting('demoServer.enabled') !== false) defs.push(demoDefinition(context.extensionPath));
  const inspected = config.inspect<Record<string, unknown>>('servers');
  const fromSettings = (value: unknown, kind: 'settings' | 'workspaceSettings', location: string) => {
    const r = readServers(value, { kind, location });
    defs.push(...r.servers);
    problems.push(...r.errors);
  };
  fromSettings(inspected?.globalValue, 'settings', 'user setting mcpRoundtrip.servers');
  fromSettings(inspected?.workspaceValue, 'workspaceSettings', 'workspace setting mcpRoundtrip.servers');
  const files: { uri: vscode.Uri; kind: 'userFile' | 'workspaceFile'; folder?: string }[] = [
    { uri: vscode.Uri.file(userMcpJsonPath(context)), kind: 'userFile' },
  ];
  for (const f of vscode.workspace.workspaceFolders ?? [])
    files.push({ uri: vscode.Uri.joinPath(f.uri, '.vscode', 'mcp.json'), kind: 'workspaceFile', folder: f.uri.fsPath });
  for (const f of files) {
    const read = await readConfigFile(f.uri);
    if (read.kind === 'missing') continue;
    if (read.kind === 'problem') {
      problems.push(read.problem);
      continue;
    }
    const parsed = parseServerFile(read.text, { kind: f.kind, location: f.uri.fsPath, workspaceFolder: f.folder });
    defs.push(...parsed.servers);
    problems.push(...parsed.errors);
    inputs.push(...parsed.inputs);
  }
  return { defs, problems, inputs };
}
