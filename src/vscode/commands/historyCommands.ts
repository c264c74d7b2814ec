/**
 * What the history and the saved calls do: open a call's result again, Run Again (the same
 * arguments, in the arguments form to edit first), Save Call… (into the workspace's
 * `.vscode/mcp-calls.json`, optionally with scripted answers), Run Saved Call…, Clear Call History.
 */
import * as vscode from 'vscode';
import type { CallRecord } from '../../core/history/callRecord';
import { answersFromRecord, savedCallJson, type SavedCall } from '../../core/history/savedCalls';
import type { MrtrMethod } from '../../core/inputs/inputProvider';
import { errorMessage } from '../../core/util/errors';
import { isPlainObject } from '../../core/util/json';
import { promptArgumentsSchema } from './commands';
import type { ListedItem } from './pickAndRun';
import { runCall, type CallDeps, type CallOptions } from './runCall';
import type { ServerEntry } from '../servers/serverEntry';
import { notificationText } from '../shared/notificationText';
import { SavedCallsFiles } from '../history/savedCallsFiles';

/** The history and saved calls, with what the commands need. */
export interface HistoryDeps extends CallDeps {
  history: NonNullable<CallDeps['history']>;
  savedCalls: SavedCallsFiles;
}

const fail = (text: string) => void vscode.window.showErrorMessage(notificationText(text));

function serverOf(deps: CallDeps, name: string): ServerEntry | undefined {
  const entry = deps.registry.get(name);
  if (!entry) fail(`No server named "${name}" is configured any more; add it again to run this call.`);
  return entry;
}

/** The listed tool or prompt of a call (for its schema), or `undefined` when the server does not list it. */
async function listedItem(deps: CallDeps, entry: ServerEntry, method: MrtrMethod, name: string): Promise<ListedItem | undefined> {
  if (method === 'resources/read') return undefined;
  const conn = await deps.registry.connection(entry);
  const items = await conn.list(method === 'tools/call' ? 'tools' : 'prompts');
  return items.find((i): i is ListedItem => isPlainObject(i) && i.name === name);
}

/** Open a call's result again from the history (or say why there is none). */
export async function openHistoryResult(deps: CallDeps, record: CallRecord): Promise<void> {
  if (!record.result) {
    const why =
      record.resultNote ??
      (record.error ? `it ${record.status === 'cancelled' ? 'was cancelled' : 'failed'}: ${record.error}` : 'it has no result');
    return void vscode.window
      .showInformationMessage(notificationText(`${record.target} (${record.server}): no result to show, ${why}.`), 'Run Again')
      .then((a) => a && vscode.commands.executeCommand('mcpRoundtrip.history.runAgain', { kind: 'call', record }));
  }
  await deps.results.show({
    server: record.server,
    method: record.method,
    target: record.target,
    result: record.result,
    era: record.era,
    rounds: record.rounds.length,
    totalMs: record.totalMs,
    waitingMs: record.waitingMs,
    historyId: record.id,
    startedAt: record.startedAt,
  });
}

/** Open the MCP App of a history entry's tool again, with the call's stored arguments and result (or say why not). */
export async function openHistoryApp(deps: CallDeps, record: CallRecord): Promise<void> {
  if (record.method !== 'tools/call') return fail(`${record.target} (${record.server}) is not a tool call: it has no app.`);
  const entry = serverOf(deps, record.server);
  if (!entry || !deps.apps) return;
  await deps.apps.show({ entry, tool: record.target, arguments: record.arguments ?? {}, result: record.result });
}

/**
 * Show a tool's or prompt's arguments in the arguments form (opened with `args`, to edit), then run
 * the call with what the person submits; a resource, or a tool without arguments, runs once `confirm`
 * agrees. Says why when the server no longer lists the target.
 * @param confirm asked before a call that has no form to show (none: run at once)
 */
async function withArgumentsForm(
  deps: CallDeps,
  entry: ServerEntry,
  method: MrtrMethod,
  target: string,
  args: Record<string, unknown>,
  options: CallOptions,
  confirm?: () => Thenable<boolean> | boolean,
): Promise<void> {
  let item: ListedItem | undefined;
  try {
    item = await listedItem(deps, entry, method, target);
  } catch (e) {
    return fail(`${entry.name}: ${errorMessage(e)}`);
  }
  if (method === 'resources/read') {
    if (confirm && !(await confirm())) return;
    return void (await runCall(deps, entry, method, { uri: target }, options));
  }
  if (!item) return fail(`${entry.name} no longer lists ${method === 'tools/call' ? 'a tool' : 'a prompt'} named "${target}".`);
  const schema = method === 'tools/call' ? item.inputSchema : item.arguments?.length ? promptArgumentsSchema(item.arguments) : undefined;
  if (schema && isPlainObject(schema.properties) && Object.keys(schema.properties).length) {
    const got = await deps.ui.collectArguments({
      server: entry.name,
      kind: method === 'tools/call' ? 'tool' : 'prompt',
      name: target,
      title: item.title,
      description: item.description,
      schema,
      initial: args,
    });
    if (!got) return;
    args = got;
  } else if (confirm && !(await confirm())) return;
  await runCall(deps, entry, method, { name: target, arguments: args }, method === 'tools/call' ? { ...options, tool: item } : options);
}

/**
 * Run a call of the history again: the same arguments, shown in the arguments form first (to edit;
 * secret ones left out are asked again), then the call.
 */
export async function runAgain(deps: CallDeps, record: CallRecord): Promise<void> {
  const entry = serverOf(deps, record.server);
  if (!entry) return;
  await withArgumentsForm(deps, entry, record.method, record.target, record.arguments ?? {}, {});
}

/** Which workspace folder gets the saved call (asked when there are several). */
async function pickFolder(): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (!folders.length) return void fail('Save Call… needs an open folder: saved calls live in its .vscode/mcp-calls.json.');
  if (folders.length === 1) return folders[0];
  return (
    await vscode.window.showQuickPick(
      folders.map((f) => ({ label: f.name, description: f.uri.fsPath, folder: f })),
      { placeHolder: 'Save the call in which folder?' },
    )
  )?.folder;
}

/** Save a call of the history into the workspace's `.vscode/mcp-calls.json` (with its answers, if the person wants them). */
export async function saveCall(deps: HistoryDeps, record: CallRecord): Promise<void> {
  const folder = await pickFolder();
  if (!folder) return;
  const taken = new Set(deps.savedCalls.list().map((c) => c.name));
  const name = await vscode.window.showInputBox({
    title: 'Save Call…',
    prompt: `Name of the saved call (${record.target} on ${record.server}); run it with Run Saved Call… or \`mcp-roundtrip run <name>\``,
    value: taken.has(record.target) ? `${record.target} ${taken.size + 1}` : record.target,
    ignoreFocusOut: true,
    validateInput: (v) => (!v.trim() ? 'Enter a name' : undefined),
  });
  if (!name) return;
  const { answers, unscripted } = answersFromRecord(record);
  let withAnswers = false;
  if (Object.keys(answers).length || unscripted.length) {
    const note = unscripted.length ? `; not kept, so asked when it runs: ${unscripted.join(', ')}` : '';
    const pick = await vscode.window.showQuickPick(
      [
        { label: 'Arguments only', description: 'every input is asked when the call runs', answers: false },
        { label: 'Arguments and answers', description: `scripted answers (the CLI's --answers format)${note}`, answers: true },
      ],
      { placeHolder: `Save the answers of ${record.target} too?` },
    );
    if (!pick) return;
    withAnswers = pick.answers;
  }
  const missing = record.omittedArguments?.length
    ? ` Secret arguments were not kept (${record.omittedArguments.join(', ')}): add them to the file yourself if you want them there.`
    : '';
  try {
    const uri = await deps.savedCalls.save(
      folder,
      name.trim(),
      savedCallJson({ ...record, arguments: record.arguments ?? {}, answers: withAnswers ? answers : undefined }),
    );
    const open = await vscode.window.showInformationMessage(
      notificationText(`Saved "${name.trim()}" in ${vscode.workspace.asRelativePath(uri)}.${missing}`),
      'Open File',
    );
    if (open) await vscode.window.showTextDocument(uri);
  } catch (e) {
    fail(`Could not save the call: ${errorMessage(e)}`);
  }
}

/** Whether `entry` is defined by the workspace folder `folder` itself (its `.vscode/mcp.json`), or is the built-in demo. */
export function ownServer(entry: ServerEntry, folder: string | undefined): boolean {
  const source = entry.def.source;
  return source.kind === 'demo' || (source.kind === 'workspaceFile' && !!folder && source.workspaceFolder === folder);
}

/** Where a server is defined, in words. */
const definedIn = (entry: ServerEntry) =>
  entry.def.source.kind === 'settings' || entry.def.source.kind === 'userFile'
    ? `your own server (${entry.def.source.location})`
    : `defined in ${entry.def.source.location}`;

/** What a saved call does, in one line: `call book_table on "demo" with {...}`. */
function savedCallLine(call: SavedCall): string {
  const what =
    call.method === 'resources/read' ? `read ${call.target}` : `${call.method === 'tools/call' ? 'call' : 'get prompt'} ${call.target}`;
  const args = call.arguments && Object.keys(call.arguments).length ? ` with ${JSON.stringify(call.arguments)}` : '';
  return notificationText(`${what} on "${call.server}"${args}`, 400);
}

/** Ask before a saved call runs: a modal naming the file, the call and the server; true on Run. */
async function askToRun(call: SavedCall, detail: string): Promise<boolean> {
  const file = vscode.workspace.asRelativePath(call.location);
  const run = await vscode.window.showWarningMessage(
    notificationText(`Run the saved call "${call.name}" of ${file}?`, 300),
    { modal: true, detail },
    'Run',
  );
  return run === 'Run';
}

/**
 * Run a saved call, as the file says now (picked from every folder's saved calls when not given). A
 * file in the workspace is someone else's words: nothing of an untrusted workspace runs; the call is
 * shown before it runs (its arguments form, else a modal naming the file, call and server); a server
 * its own folder does not define is asked about first; its answers only pre-fill forms.
 * @param which the call's name and file (a click in the view)
 */
export async function runSavedCall(deps: HistoryDeps, which?: Pick<SavedCall, 'name' | 'location'>): Promise<void> {
  if (!vscode.workspace.isTrusted)
    return fail('Saved calls of this workspace are not run: the workspace is not trusted (they come from its files).');
  await deps.savedCalls.reload();
  let call = which && deps.savedCalls.list().find((c) => c.name === which.name && c.location === which.location);
  if (which && !call) return fail(`"${which.name}" is no longer in ${which.location}.`);
  if (!call) {
    const calls = deps.savedCalls.list();
    if (!calls.length)
      return void vscode.window.showInformationMessage(
        `No saved calls: save one from the Call History (Save Call…), or write ${'.vscode/mcp-calls.json'}.`,
      );
    call = (
      await vscode.window.showQuickPick(
        calls.map((c) => ({
          label: c.name,
          description: `${c.server} · ${c.target}`,
          detail: `${vscode.workspace.asRelativePath(c.location)}${c.answers ? ` · pre-fills ${Object.keys(c.answers).join(', ')}` : ''}`,
          call: c,
        })),
        { placeHolder: 'Run which saved call?', matchOnDescription: true },
      )
    )?.call;
    if (!call) return;
  }
  const entry = serverOf(deps, call.server);
  if (!entry) return;
  const saved = call;
  // Asked once: about the server it may not use without asking, else (no form to show) about the call.
  let confirm: (() => Promise<boolean>) | undefined = () => askToRun(saved, `It will ${savedCallLine(saved)}.`);
  if (!ownServer(entry, saved.folder)) {
    const detail = `It would ${savedCallLine(saved)}: ${definedIn(entry)}, not a server of the folder this file is in.`;
    if (!(await askToRun(saved, detail))) return;
    confirm = undefined;
  }
  await withArgumentsForm(
    deps,
    entry,
    saved.method,
    saved.target,
    saved.arguments ?? {},
    saved.answers ? { prefill: saved.answers } : {},
    confirm,
  );
}

/** Forget every call of the history (after asking). */
export async function clearHistory(deps: HistoryDeps): Promise<void> {
  const ok = await vscode.window.showWarningMessage('Clear the call history of this workspace?', { modal: true }, 'Clear');
  if (ok === 'Clear') await deps.history.store.clear();
}
