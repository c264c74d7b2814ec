/**
 * What the history and the saved calls do: open a call's result again, Run Again (the same
 * arguments, in the arguments form to edit first), Save Call… (into the workspace's
 * `.vscode/mcp-calls.json`, optionally with scripted answers), Run Saved Call…, Clear Call History.
 */
import * as vscode from 'vscode';
import type { CallRecord } from '../../core/history/callRecord';
import type { ShownCall } from '../../core/results/resultViewBuild';
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
  if (!entry) fail(vscode.l10n.t('No server named "{0}" is configured any more; add it again to run this call.', name));
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
      (record.error
        ? record.status === 'cancelled'
          ? vscode.l10n.t('it was cancelled: {0}', record.error)
          : vscode.l10n.t('it failed: {0}', record.error)
        : vscode.l10n.t('it has no result'));
    return void vscode.window
      .showInformationMessage(
        notificationText(vscode.l10n.t('{0} ({1}): no result to show, {2}.', record.target, record.server, why)),
        vscode.l10n.t('Run Again'),
      )
      .then((a) => a && vscode.commands.executeCommand('mcpRoundtrip.history.runAgain', { kind: 'call', record }));
  }
  await deps.results.show(shownCallOf(record, record.result));
}

/** A history entry as the result view shows it: its result and what the header says of the call. */
function shownCallOf(record: CallRecord, result: Record<string, unknown>): ShownCall {
  return {
    server: record.server,
    method: record.method,
    target: record.target,
    result,
    era: record.era,
    rounds: record.rounds.length,
    totalMs: record.totalMs,
    waitingMs: record.waitingMs,
    historyId: record.id,
    startedAt: record.startedAt,
  };
}

/** Open the MCP App of a history entry's tool again, with the call's stored arguments and result (or say why not). */
export async function openHistoryApp(deps: CallDeps, record: CallRecord): Promise<void> {
  if (record.method !== 'tools/call')
    return fail(vscode.l10n.t('{0} ({1}) is not a tool call: it has no app.', record.target, record.server));
  const entry = serverOf(deps, record.server);
  if (!entry || !deps.apps) return;
  const { result } = record;
  await deps.apps.show({
    entry,
    tool: record.target,
    arguments: record.arguments ?? {},
    result,
    text: result && shownCallOf(record, result),
  });
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
  if (!item)
    return fail(
      method === 'tools/call'
        ? vscode.l10n.t('{0} no longer lists a tool named "{1}".', entry.name, target)
        : vscode.l10n.t('{0} no longer lists a prompt named "{1}".', entry.name, target),
    );
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
  if (!folders.length)
    return void fail(vscode.l10n.t('Save Call… needs an open folder: saved calls live in its {0}.', '.vscode/mcp-calls.json'));
  if (folders.length === 1) return folders[0];
  return (
    await vscode.window.showQuickPick(
      folders.map((f) => ({ label: f.name, description: f.uri.fsPath, folder: f })),
      { placeHolder: vscode.l10n.t('Save the call in which folder?') },
    )
  )?.folder;
}

/** Save a call of the history into the workspace's `.vscode/mcp-calls.json` (with its answers, if the person wants them). */
export async function saveCall(deps: HistoryDeps, record: CallRecord): Promise<void> {
  const folder = await pickFolder();
  if (!folder) return;
  const taken = new Set(deps.savedCalls.list().map((c) => c.name));
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Save Call…'),
    prompt: vscode.l10n.t(
      'Name of the saved call ({0} on {1}); run it with Run Saved Call… or {2}',
      record.target,
      record.server,
      '`mcp-roundtrip run <name>`',
    ),
    value: taken.has(record.target) ? `${record.target} ${taken.size + 1}` : record.target,
    ignoreFocusOut: true,
    validateInput: (v) => (!v.trim() ? vscode.l10n.t('Enter a name') : undefined),
  });
  if (!name) return;
  const { answers, unscripted } = answersFromRecord(record);
  let withAnswers = false;
  if (Object.keys(answers).length || unscripted.length) {
    const note = unscripted.length ? vscode.l10n.t('; not kept, so asked when it runs: {0}', unscripted.join(', ')) : '';
    const pick = await vscode.window.showQuickPick(
      [
        { label: vscode.l10n.t('Arguments only'), description: vscode.l10n.t('every input is asked when the call runs'), answers: false },
        {
          label: vscode.l10n.t('Arguments and answers'),
          description: vscode.l10n.t("scripted answers (the CLI's {0} format){1}", '--answers', note),
          answers: true,
        },
      ],
      { placeHolder: vscode.l10n.t('Save the answers of {0} too?', record.target) },
    );
    if (!pick) return;
    withAnswers = pick.answers;
  }
  const missing = record.omittedArguments?.length
    ? ` ${vscode.l10n.t('Secret arguments were not kept ({0}): add them to the file yourself if you want them there.', record.omittedArguments.join(', '))}`
    : '';
  try {
    const uri = await deps.savedCalls.save(
      folder,
      name.trim(),
      savedCallJson({ ...record, arguments: record.arguments ?? {}, answers: withAnswers ? answers : undefined }),
    );
    const open = await vscode.window.showInformationMessage(
      notificationText(`${vscode.l10n.t('Saved "{0}" in {1}.', name.trim(), vscode.workspace.asRelativePath(uri))}${missing}`),
      vscode.l10n.t('Open File'),
    );
    if (open) await vscode.window.showTextDocument(uri);
  } catch (e) {
    fail(vscode.l10n.t('Could not save the call: {0}', errorMessage(e)));
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
    ? vscode.l10n.t('your own server ({0})', entry.def.source.location)
    : vscode.l10n.t('defined in {0}', entry.def.source.location);

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
  const runLabel = vscode.l10n.t('Run');
  const run = await vscode.window.showWarningMessage(
    notificationText(vscode.l10n.t('Run the saved call "{0}" of {1}?', call.name, file), 300),
    { modal: true, detail },
    runLabel,
  );
  return run === runLabel;
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
    return fail(vscode.l10n.t('Saved calls of this workspace are not run: the workspace is not trusted (they come from its files).'));
  await deps.savedCalls.reload();
  let call = which && deps.savedCalls.list().find((c) => c.name === which.name && c.location === which.location);
  if (which && !call) return fail(vscode.l10n.t('"{0}" is no longer in {1}.', which.name, which.location));
  if (!call) {
    const calls = deps.savedCalls.list();
    if (!calls.length)
      return void vscode.window.showInformationMessage(
        vscode.l10n.t('No saved calls: save one from the Call History (Save Call…), or write {0}.', '.vscode/mcp-calls.json'),
      );
    call = (
      await vscode.window.showQuickPick(
        calls.map((c) => ({
          label: c.name,
          description: `${c.server} · ${c.target}`,
          detail: `${vscode.workspace.asRelativePath(c.location)}${c.answers ? ` · ${vscode.l10n.t('pre-fills {0}', Object.keys(c.answers).join(', '))}` : ''}`,
          call: c,
        })),
        { placeHolder: vscode.l10n.t('Run which saved call?'), matchOnDescription: true },
      )
    )?.call;
    if (!call) return;
  }
  const entry = serverOf(deps, call.server);
  if (!entry) return;
  const saved = call;
  // Asked once: about the server it may not use without asking, else (no form to show) about the call.
  let confirm: (() => Promise<boolean>) | undefined = () => askToRun(saved, vscode.l10n.t('It will {0}.', savedCallLine(saved)));
  if (!ownServer(entry, saved.folder)) {
    const detail = vscode.l10n.t('It would {0}: {1}, not a server of the folder this file is in.', savedCallLine(saved), definedIn(entry));
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
  const clear = vscode.l10n.t('Clear');
  const ok = await vscode.window.showWarningMessage(vscode.l10n.t('Clear the call history of this workspace?'), { modal: true }, clear);
  if (ok === clear) await deps.history.store.clear();
}
