/**
 * Command palette entry points (titles are a contract): Call Tool…, Get Prompt…, Read Resource…,
 * Show Round-Trip Log, Restart Server…, Add Server…, Open Server Configuration.
 * Quick picks: server (name, era, state) → item (title, description) → arguments form → call.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/util/errors';
import { analyzeUrl } from '../../core/elicitation/urlConsent';
import { notificationText } from '../shared/notificationText';
import { listItems, pickAndCall, pickServer, type ItemCall, type ListedItem } from './pickAndRun';
import { runCall, type CallDeps } from './runCall';
import { completerFor } from './argumentCompletion';
import { listTemplates, readTemplate } from './templateRead';
import { serverDetail } from '../servers/serverDetail';
import type { ServerEntry } from '../servers/serverEntry';
import { userMcpJsonPath } from '../servers/serverSources';

/** Prompt arguments → the object schema the arguments form renders. */
export function promptArgumentsSchema(args: ListedItem['arguments']): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const a of args ?? [])
    properties[a.name] = { type: 'string', title: a.name, ...(a.description ? { description: a.description } : {}) };
  return { type: 'object', properties, required: (args ?? []).filter((a) => a.required).map((a) => a.name) };
}

function hasFields(schema: Record<string, unknown> | undefined): boolean {
  const props = schema?.properties;
  return !!props && typeof props === 'object' && Object.keys(props).length > 0;
}

const CALL_TOOL: ItemCall = {
  list: 'tools',
  serverPlaceHolder: vscode.l10n.t('Call a tool on which server?'),
  itemPlaceHolder: (server) => vscode.l10n.t('Tool of {0}', server),
  none: (server) => vscode.l10n.t('{0} has no tools.', server),
  argKind: 'tool',
  method: 'tools/call',
  argumentsSchema: (tool) => (hasFields(tool.inputSchema) ? tool.inputSchema : undefined),
};

const GET_PROMPT: ItemCall = {
  list: 'prompts',
  serverPlaceHolder: vscode.l10n.t('Get a prompt from which server?'),
  itemPlaceHolder: (server) => vscode.l10n.t('Prompt of {0}', server),
  none: (server) => vscode.l10n.t('{0} has no prompts.', server),
  argKind: 'prompt',
  method: 'prompts/get',
  argumentsSchema: (prompt) => (prompt.arguments?.length ? promptArgumentsSchema(prompt.arguments) : undefined),
  completer: (conn, prompt) => completerFor(conn, { type: 'ref/prompt', name: prompt.name ?? '' }),
};

/** Call a tool: server → tool → arguments (form) → call. Also used by the view's inline Run. */
export function callTool(deps: CallDeps, entry?: ServerEntry, tool?: ListedItem): Promise<void> {
  return pickAndCall(deps, CALL_TOOL, entry, tool);
}

/** Get a prompt: server → prompt → arguments → prompts/get. */
export function getPrompt(deps: CallDeps, entry?: ServerEntry, prompt?: ListedItem): Promise<void> {
  return pickAndCall(deps, GET_PROMPT, entry, prompt);
}

/** Read a resource: server → resource, template (its variables in a form) or a typed URI → resources/read. */
export async function readResource(deps: CallDeps, entry?: ServerEntry, uri?: string): Promise<void> {
  entry ??= await pickServer(deps, vscode.l10n.t('Read a resource from which server?'));
  if (!entry) return;
  if (!uri) {
    const resources = (await listItems(deps, entry, 'resources')) ?? [];
    const templates = await listTemplates(deps, entry);
    const typed = { label: `$(edit) ${vscode.l10n.t('Enter a resource URI…')}`, uri: '' };
    const separator = (label: string) => ({ label, kind: vscode.QuickPickItemKind.Separator, uri: '' });
    const pick = await vscode.window.showQuickPick<vscode.QuickPickItem & { uri: string; template?: ListedItem }>(
      [
        ...resources.map((r) => ({
          label: r.title ?? r.name ?? r.uri ?? '?',
          description: r.uri,
          detail: r.description,
          uri: r.uri ?? '',
        })),
        ...(templates.length ? [separator(vscode.l10n.t('Templates'))] : []),
        ...templates.map((t) => ({
          label: t.title ?? t.name ?? t.uriTemplate ?? '?',
          description: t.uriTemplate,
          detail: t.description,
          uri: '',
          template: t,
        })),
        ...(templates.length ? [separator('')] : []),
        typed,
      ],
      { placeHolder: vscode.l10n.t('Resource of {0}', entry.name), matchOnDescription: true },
    );
    if (!pick) return;
    if (pick.template) return readTemplate(deps, entry, pick.template);
    uri =
      pick === typed
        ? await vscode.window.showInputBox({ prompt: vscode.l10n.t('Resource URI to read from {0}', entry.name), ignoreFocusOut: true })
        : pick.uri;
    if (!uri) return;
  }
  await runCall(deps, entry, 'resources/read', { uri });
}

/** Restart a server (kills and respawns a stdio server; forgets its era verdict). */
export async function restartServer(deps: CallDeps, entry?: ServerEntry): Promise<void> {
  entry ??= await pickServer(deps, vscode.l10n.t('Restart which server?'));
  if (!entry) return;
  try {
    const conn = await deps.registry.connection(entry);
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Restarting {0}', entry.name) },
      () => conn.restart(),
    );
    void vscode.window.showInformationMessage(notificationText(vscode.l10n.t('{0} restarted ({1}).', entry.name, serverDetail(entry))));
  } catch (e) {
    void vscode.window.showErrorMessage(notificationText(`${entry.name}: ${errorMessage(e)}`));
  } finally {
    deps.registry.touch();
  }
}

/** Add a server to the user setting `mcpRoundtrip.servers` (stdio command line or HTTP URL). */
export async function addServer(): Promise<void> {
  const type = await vscode.window.showQuickPick(
    [
      {
        label: vscode.l10n.t('Command (stdio)'),
        description: vscode.l10n.t('Run a local program that speaks MCP on stdin/stdout'),
        type: 'stdio' as const,
      },
      { label: 'HTTP', description: vscode.l10n.t('Connect to a Streamable HTTP endpoint'), type: 'http' as const },
    ],
    { placeHolder: vscode.l10n.t('What kind of MCP server?') },
  );
  if (!type) return;
  let def: Record<string, unknown>;
  if (type.type === 'stdio') {
    const line = await vscode.window.showInputBox({
      prompt: vscode.l10n.t('Command line that starts the server'),
      placeHolder: 'npx -y @modelcontextprotocol/server-everything',
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a command')),
    });
    if (!line) return;
    const { parse } = await import('shell-quote');
    const words = parse(line);
    if (words.some((w) => typeof w !== 'string'))
      return void vscode.window.showErrorMessage(vscode.l10n.t('Shell operators (|, &&, >) are not supported in a server command line.'));
    const [command, ...args] = words as string[];
    def = { type: 'stdio', command, args };
  } else {
    const url = await vscode.window.showInputBox({
      prompt: vscode.l10n.t('Server URL'),
      placeHolder: 'https://example.com/mcp',
      ignoreFocusOut: true,
      validateInput: (v) => (analyzeUrl(v).openable ? undefined : vscode.l10n.t('Enter an http(s) URL')),
    });
    if (!url) return;
    def = { type: 'http', url };
  }
  const config = vscode.workspace.getConfiguration('mcpRoundtrip');
  const current = { ...(config.inspect<Record<string, unknown>>('servers')?.globalValue ?? {}) };
  const suggested = type.type === 'stdio' ? path.basename(String(def.command)) : new URL(String(def.url)).hostname;
  const name = await vscode.window.showInputBox({
    prompt: vscode.l10n.t('Name for this server'),
    value: suggested,
    ignoreFocusOut: true,
    validateInput: (v) =>
      !v.trim() ? vscode.l10n.t('Enter a name') : current[v] ? vscode.l10n.t('A server named "{0}" exists already', v) : undefined,
  });
  if (!name) return;
  current[name] = def;
  await config.update('servers', current, vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(notificationText(vscode.l10n.t('Added MCP server "{0}" to your user settings.', name)));
}

/** Open where servers are configured: user settings, the profile's mcp.json, a folder's .vscode/mcp.json. */
export async function openConfiguration(context: vscode.ExtensionContext): Promise<void> {
  const items: { label: string; description?: string; run: () => Thenable<unknown> }[] = [
    {
      label: vscode.l10n.t('User settings ({0})', 'mcpRoundtrip.servers'),
      run: () => vscode.commands.executeCommand('workbench.action.openSettingsJson'),
    },
    {
      label: vscode.l10n.t('User {0}', 'mcp.json'),
      description: userMcpJsonPath(context),
      run: () => openOrCreate(vscode.Uri.file(userMcpJsonPath(context))),
    },
    ...(vscode.workspace.workspaceFolders ?? []).map((f) => ({
      label: `${f.name}: .vscode/mcp.json`,
      description: f.uri.fsPath,
      run: () => openOrCreate(vscode.Uri.joinPath(f.uri, '.vscode', 'mcp.json')),
    })),
  ];
  const pick = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Open which server configuration?') });
  await pick?.run();
}

async function openOrCreate(uri: vscode.Uri): Promise<void> {
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('{\n  "servers": {\n  }\n}\n'));
  }
  await vscode.window.showTextDocument(uri);
}
