/**
 * What the history and the saved calls do: open a call's result again, Run Again (the same
 * arguments, in the arguments form to edit first), Save Call… (into the workspace's
 * `.vscode/mcp-calls.json`, optionally with scripted answers), Run Saved Call…, Clear Call History.
 */
import * as vscode from 'vscode';
import type { CallRecord } from '../../core/history/callRecord';
import { answersFromRecord, savedCallJson, savedCallRequest, type SavedCall } from '../../core/history/savedCalls';
import type { MrtrMethod } from '../../core/inputs/inputProvider';
import { errorMessage } from '../../core/util/errors';
import { isPlainObject } from '../../core/util/json';
import { promptArgumentsSchema } from './commands';
import type { ListedItem } from './pickAndRun';
import { runCall, type CallDeps } from './runCall';
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

/**
 * Run a call of the history again: the same arguments, shown in the arguments form first (to edit;
 * secret ones left out are asked again), then the call.
 */
export async function runAgain(deps: CallDeps, record: CallRecord): Promise<void> {
  const entry = serverOf(deps, record.server);
  if (!entry) return;
  let item: ListedItem | undefined;
  try {
    item = await listedItem(deps, entry, record.method, record.target);
  } catch (e) {
    return fail(`${entry.name}: ${errorMessage(e)}`);
  }
  if (record.method === 'resources/read') return void (await runCall(deps, entry, record.method, { uri: record.target }));
  if (!item)
    return fail(`${entry.name} no longer lists ${record.method === 'tools/call' ? 'a tool' : 'a prompt'} named "${record.target}".`);
  const schema =
    record.method === 'tools/call' ? item.inputSchema : item.arguments?.length ? promptArgumentsSchema(item.arguments) : undefined;
  let args = record.arguments ?? {};
  if (schema && isPlainObject(schema.properties) && Object.keys(schema.properties).length) {
    const got = await deps.ui.collectArguments({
      server: entry.name,
      kind: record.method === 'tools/call' ? 'tool' : 'prompt',
      name: record.target,
      title: item.title,
      description: item.description,
      schema,
      initial: args,
    });
    if (!got) return;
    args = got;
  }
  await runCall(deps, entry, record.method, { name: record.target, arguments: args }, record.method === 'tools/call' ? { tool: item } : {});
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

/**
 * Run a saved call, as the file says now (picked from every folder's saved calls when not given).
 * @param which the call's name and file (a click in the view)
 */
export async function runSavedCall(deps: HistoryDeps, which?: Pick<SavedCall, 'name' | 'location'>): Promise<void> {
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
          detail: c.answers ? `with answers for ${Object.keys(c.answers).join(', ')}` : undefined,
          call: c,
        })),
        { placeHolder: 'Run which saved call?', matchOnDescription: true },
      )
    )?.call;
    if (!call) return;
  }
  const entry = serverOf(deps, call.server);
  if (!entry) return;
  const { method, params } = savedCallRequest(call);
  await runCall(deps, entry, method, params, call.answers ? { answers: call.answers } : {});
}

/** Forget every call of the history (after asking). */
export async function clearHistory(deps: HistoryDeps): Promise<void> {
  const ok = await vscode.window.showWarningMessage('Clear the call history of this workspace?', { modal: true }, 'Clear');
  if (ok === 'Clear') await deps.history.store.clear();
}
