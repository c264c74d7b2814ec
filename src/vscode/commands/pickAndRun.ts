/**
 * The pickers behind the commands: a server (name and state), then one of its tools, prompts or
 * resources, then the arguments form, then the call (`runCall.ts`). Call Tool and Get Prompt are the
 * same flow over a different list.
 */
import * as vscode from 'vscode';
import { taskMark } from '../../core/tasks/task';
import type { MrtrMethod } from '../../core/inputs/inputProvider';
import { errorMessage } from '../../core/util/errors';
import type { ServerConnection } from '../../core/connection/serverConnection';
import type { ArgumentCompleter, ArgumentsRequest } from '../roundPanel/inputUi';
import { serverDetail } from '../servers/serverDetail';
import type { ServerEntry } from '../servers/serverEntry';
import { notificationText } from '../shared/notificationText';
import { runCall, type CallDeps } from './runCall';
import { callableTools } from '../../core/connection/toolVisibility';

/** A tool, prompt or resource as listed (only the members the pickers read). */
export type ListedItem = {
  name?: string;
  title?: string;
  description?: string;
  uri?: string;
  /** A resource template's RFC 6570 URI template. */
  uriTemplate?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  arguments?: { name: string; description?: string; required?: boolean }[];
};

/**
 * Ask which server (offering Add Server… when none is configured).
 * @returns the server, or `undefined` when the person dismissed the picker
 */
/** The status bar's progress line while a server's items are listed. */
const LISTING = {
  tools: (server: string) => vscode.l10n.t('Listing the tools of {0}', server),
  prompts: (server: string) => vscode.l10n.t('Listing the prompts of {0}', server),
  resources: (server: string) => vscode.l10n.t('Listing the resources of {0}', server),
};

export async function pickServer(deps: CallDeps, placeHolder: string): Promise<ServerEntry | undefined> {
  const entries = deps.registry.list();
  if (!entries.length) {
    const add = await vscode.window.showInformationMessage(vscode.l10n.t('No MCP servers are configured.'), vscode.l10n.t('Add Server…'));
    if (add) await vscode.commands.executeCommand('mcpRoundtrip.addServer');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    entries.map((e) => ({ label: e.name, description: serverDetail(e), entry: e })),
    { placeHolder, matchOnDescription: true },
  );
  return pick?.entry;
}

/**
 * List a server's tools, prompts or resources (connecting it), with progress in the status bar.
 * @returns the items, or `undefined` when listing failed (the error is shown, with a way to the log)
 */
export async function listItems(
  deps: CallDeps,
  entry: ServerEntry,
  kind: 'tools' | 'prompts' | 'resources',
): Promise<ListedItem[] | undefined> {
  try {
    const conn = await deps.registry.connection(entry);
    const items = (await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: LISTING[kind](entry.name) }, () =>
      conn.list(kind),
    )) as ListedItem[];
    deps.registry.touch();
    // A tool only its MCP App may call is not offered to the person.
    return kind === 'tools' ? callableTools(items) : items;
  } catch (e) {
    deps.registry.touch();
    void vscode.window
      .showErrorMessage(notificationText(`${entry.name}: ${errorMessage(e)}`), vscode.l10n.t('Show Round-Trip Log'))
      .then((action) => action && deps.log.show());
    return undefined;
  }
}

/** What differs between Call Tool and Get Prompt. */
export interface ItemCall {
  /** What is listed and picked. */
  list: 'tools' | 'prompts';
  /** The server picker's placeholder. */
  serverPlaceHolder: string;
  /** The item picker's placeholder for a server ("Tool of demo"). */
  itemPlaceHolder(server: string): string;
  /** What is said when the server lists none ("demo has no tools."). */
  none(server: string): string;
  argKind: ArgumentsRequest['kind'];
  method: MrtrMethod;
  /** The schema of the item's arguments form, or `undefined` when it takes no arguments. */
  argumentsSchema(item: ListedItem): Record<string, unknown> | undefined;
  /** Suggestions for the form's fields (`completion/complete`), when the server offers them. */
  completer?(conn: ServerConnection, item: ListedItem): ArgumentCompleter | undefined;
}

/**
 * Server → item → arguments (form, when the item takes any) → call. A step the person dismisses
 * ends the flow quietly; a server or item given (the view's inline Run) skips its picker.
 */
export async function pickAndCall(deps: CallDeps, call: ItemCall, entry?: ServerEntry, item?: ListedItem): Promise<void> {
  entry ??= await pickServer(deps, call.serverPlaceHolder);
  if (!entry) return;
  if (!item) {
    const items = await listItems(deps, entry, call.list);
    if (!items) return;
    if (!items.length) return void vscode.window.showInformationMessage(notificationText(call.none(entry.name)));
    const picks = items.map((i) => ({
      label: i.title ?? i.name ?? '?',
      description: i.title ? i.name : undefined,
      // A tool that needs or accepts tasks says so (`[task: required]`).
      detail: [call.list === 'tools' ? taskMark(i) : '', i.description ?? ''].filter(Boolean).join(' ') || undefined,
      item: i,
    }));
    item = (await pickFromMany(picks, call.itemPlaceHolder(entry.name)))?.item;
    if (!item) return;
  }
  let args: Record<string, unknown> = {};
  const schema = call.argumentsSchema(item);
  const completer = schema && call.completer ? await completerOf(deps, entry, call, item) : undefined;
  const request: ArgumentsRequest | undefined = schema
    ? {
        server: entry.name,
        kind: call.argKind,
        name: item.name!,
        title: item.title,
        description: item.description,
        schema,
        ...(completer ? { complete: completer } : {}),
      }
    : undefined;
  if (request) {
    const got = await deps.ui.collectArguments(request);
    if (!got) return;
    args = got;
  }
  // The arguments panel becomes the call's round panel.
  await runCall(
    deps,
    entry,
    call.method,
    { name: item.name, arguments: args },
    { ...(call.method === 'tools/call' ? { tool: item } : {}), argumentsRequest: request },
  );
}

/**
 * Ask for one of `picks` (matching on label, description and detail), as `showQuickPick` does, through
 * a `createQuickPick` whose items are set before it is shown: the workbench then lays the list out once,
 * where `showQuickPick` shows an empty, busy list first and lays it out again when the items arrive:
 * with 10 000 tools, 2.5 s from the items handed over to the first row against 1.9 s for the same rows
 * in a bare `createQuickPick` (test/bench/palette.ts, one pair on a loaded machine).
 * @returns the picked item, or `undefined` when the person dismissed the picker
 */
function pickFromMany<T extends vscode.QuickPickItem>(picks: readonly T[], placeholder: string): Promise<T | undefined> {
  return new Promise((resolve) => {
    const quickPick = vscode.window.createQuickPick<T>();
    quickPick.placeholder = placeholder;
    quickPick.matchOnDescription = true;
    quickPick.matchOnDetail = true;
    quickPick.items = picks;
    let picked: T | undefined;
    quickPick.onDidAccept(() => {
      picked = quickPick.selectedItems[0];
      if (picked) quickPick.hide();
    });
    quickPick.onDidHide(() => {
      quickPick.dispose();
      resolve(picked);
    });
    quickPick.show();
  });
}

/** The item's field suggestions, when the server offers them; none when its connection cannot be had (the call says why). */
async function completerOf(deps: CallDeps, entry: ServerEntry, call: ItemCall, item: ListedItem): Promise<ArgumentCompleter | undefined> {
  try {
    return call.completer?.(await deps.registry.connection(entry), item);
  } catch {
    return undefined;
  }
}
