/**
 * `mcp-roundtrip`: a headless MCP host over the same core as the extension. Result on stdout,
 * the round-trip log on stderr (one line per leg). Exit codes in `exitCodes.ts`.
 */
import { statSync } from 'node:fs';
import { config as zodConfig } from 'zod/v4/core';
import { ServerConnection } from '../core/connection/serverConnection';
import { signalProcessGroup } from '../core/transport/processGroup';
import type { PrestartedProcess } from '../core/transport/stdioTransport';
import { SERVER_STOP_GRACE_MS } from '../core/limits';
import { onAbort } from '../core/util/async';
import { HostError, errorMessage, isHostError } from '../core/util/errors';
import type { HostEvent } from '../core/log/events';
import { callWithRoundTrips, type RoundTripOptions } from '../core/mrtr/driver';
import { resultToText } from '../core/results/resultText';
import { formatEvent } from '../core/log/traceLog';
import { oneLine } from '../core/util/shownText';
import type { MrtrMethod } from '../core/inputs/inputProvider';
import { parseCli, usageText, UsageError, type CliOptions, type Command } from './args';
import { EXIT, exitCodeFor } from './exitCodes';
import { loadAnswers, scriptedInputs } from '../core/mrtr/scriptedInputs';
import { resolveSavedCall } from './savedCallRun';
import { terminalInputs } from './terminalInputs';
import { terminalText } from './terminalText';
import { checkFormContent } from '../core/elicitation/formCheck';
import { cliOAuth, logout } from './cliOAuth';
import { createPrompter } from './terminalPrompt';
import { rootsHint, rootsOnlyWhenGiven } from './cliRoots';
import { askPromptArguments, askTemplateVariables } from './promptArguments';
import { uriToRead, variablesOf } from '../core/arguments/uriTemplate';
import { complete, offersCompletions } from '../core/connection/completion';
import { appMark, emptyListingLine, shownItems, shownResult } from './reach';
import { checkTemplateVariable, noSuggestion } from './completeCheck';
import { listSkillsCommand, readSkillCommand } from './skillsCommand';
import { cancelTask, fetchTask, followTask, type ToolCallResult } from '../core/tasks/taskCall';
import { taskMark, type Task } from '../core/tasks/task';
import type { TaskRecord } from '../core/tasks/taskRecords';
import { FollowedTasks, processAlive, taskLine, taskListLine } from './cliTasks';
import { cliTaskRecords } from './taskFile';
import { callToolFollowingTasks } from '../core/tasks/toolTasks';
import { ping } from './pingCommand';
import { cliLang, cliText, runErrorText, setCliLang } from './messages';

// Server events (stderr, log messages, list changes: server-everything says its tools changed at each
// start) are shown with --verbose.
const ROUND_TRIP_KINDS = new Set(['request', 'inputRequired', 'answer', 'retry', 'complete', 'error', 'warning', 'pushed', 'auth']);

/**
 * Run the CLI; resolves to the exit code. Never calls process.exit itself (testable).
 * @param io.signal cancels the call (the first Ctrl-C); the server is then asked to stop
 * @param io.killSignal stops the server at once (a second Ctrl-C: a server that ignores the request must not outlive the CLI)
 * @param io.interrupt the run's Ctrl-C, called for Ctrl-C typed at a question (a key there, not a signal)
 */
export async function runCli(
  argv: string[],
  io: {
    stdout: NodeJS.WritableStream;
    stderr: NodeJS.WritableStream;
    stdinIsTTY: boolean;
    stdoutIsTTY?: boolean;
    signal?: AbortSignal;
    killSignal?: AbortSignal;
    interrupt?: () => void;
    stdin?: NodeJS.ReadableStream;
    prestarted?: PrestartedProcess;
  },
): Promise<number> {
  setCliLang(cliLang(argv, process.env));
  let opts: CliOptions;
  try {
    opts = parseCli(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      // --help is asked for: the usage is the output (stdout). A mistake: message and usage on stderr.
      if (!e.message) {
        io.stdout.write(`${usageText()}\n`);
        return EXIT.ok;
      }
      // The message may echo what was typed: its lines kept, no control character of it reaches the terminal.
      io.stderr.write(
        `mcp-roundtrip: ${e.message
          .split('\n')
          .map((l) => oneLine(l, 2000))
          .join('\n')}\n${usageText()}\n`,
      );
      return EXIT.usage;
    }
    throw e;
  }
  let flowErrorLogged = false;
  const log = (e: HostEvent) => {
    if (e.kind === 'error') flowErrorLogged = true;
    if (!opts.verbose && !ROUND_TRIP_KINDS.has(e.kind)) return;
    const line = formatEvent(e);
    if (line) io.stderr.write(line.text + '\n');
  };
  let conn: ServerConnection | undefined;
  // The tasks this run follows: what the task file says of them once it lets go (cliTasks.ts).
  let followed: FollowedTasks | undefined;
  const unlistenKill = io.killSignal ? onAbort(io.killSignal, () => void conn?.kill()) : undefined;
  // The executable's early server: for the first connection to that very command only.
  let early = io.prestarted;
  const take = () => {
    const started = early;
    early = undefined;
    return started;
  };
  try {
    const c = opts.command;
    if (c.kind === 'logout') {
      io.stdout.write(`${await logout(opts, c.url)}\n`);
      return EXIT.ok;
    }
    if (c.kind === 'tasksList') {
      const kept = cliTaskRecords();
      // A stdio server's task went with the process that ran that server, however it ended.
      kept.settle(processAlive);
      const records = kept.list().filter((r) => !opts.server || r.server === opts.server.name);
      io.stdout.write(opts.json ? toJson(records) : records.map((r) => `${taskListLine(r)}\n`).join(''));
      if (!records.length)
        io.stderr.write(
          `${opts.server ? cliText('no task started by this CLI is kept for {0}', opts.server.name) : cliText('no task started by this CLI is kept')}\n`,
        );
      return EXIT.ok;
    }
    const saved = c.kind === 'run' ? await resolveSavedCall(c.name, process.cwd(), opts.callsFile, opts.server, c.args) : undefined;
    // A saved call's answers, then the --answers file's (which win key by key). A saved call's answer
    // an elicitation only: roots are --roots (or the terminal), sampling the terminal or --answers.
    const fileAnswers = opts.answersFile ? loadAnswers(opts.answersFile) : {};
    const answers = { ...saved?.answers, ...fileAnswers };
    const formsOnly = new Set(Object.keys(saved?.answers ?? {}).filter((k) => !Object.hasOwn(fileAnswers, k)));
    // A root is the person's word; one that is no directory here is still sent, but not silently.
    for (const root of opts.roots)
      if (!isDirectory(root))
        io.stderr.write(
          `mcp-roundtrip: ${cliText('warning: --roots {0} is not a directory here; it is sent as given', oneLine(root, 500))}\n`,
        );
    const interactive = io.stdinIsTTY && !opts.answersFile;
    const ask = createPrompter(io.stderr, io.stdin, io.interrupt);
    const provider = rootsOnlyWhenGiven(
      scriptedInputs(answers, opts.roots, interactive ? terminalInputs(io.stderr, io.stdin, ask) : undefined, checkFormContent, formsOnly),
      opts.roots,
      // Only the person's own --answers may stand for --roots: a saved call never answers roots.
      fileAnswers,
    );
    const server = saved?.server ?? opts.server!;
    const spec = early && server === opts.server && server.transport === 'stdio' ? { ...server, prestarted: take } : server;
    conn = new ServerConnection(spec, {
      provider,
      onEvent: log,
      checkFormContent,
      logLevel: opts.logLevel,
      oauth: cliOAuth(opts, io, ask),
    });
    if (c.kind === 'list') {
      const listed = (await conn.list(c.what, { signal: io.signal, timeoutMs: opts.timeoutMs })) as Record<string, unknown>[];
      const items = shownItems(c.what, listed);
      if (!items.length) io.stderr.write(`${emptyListingLine(conn.name, c.what)}\n`);
      io.stdout.write(opts.json ? toJson(items) : items.map((i) => listLine(i)).join('\n') + (items.length ? '\n' : ''));
      return EXIT.ok;
    }
    if (c.kind === 'skills' || c.kind === 'skill') {
      const sio = { stdout: io.stdout, stderr: io.stderr, stdoutIsTTY: io.stdoutIsTTY, json: opts.json };
      const limits = { signal: io.signal, timeoutMs: opts.timeoutMs };
      return c.kind === 'skills' ? await listSkillsCommand(conn, sio, limits) : await readSkillCommand(conn, c.ref, c.file, sio, limits);
    }
    if (c.kind === 'complete') {
      checkTemplateVariable(c);
      const limits = { signal: io.signal, timeoutMs: opts.timeoutMs };
      const server = conn;
      // A server's error about a prompt (-32602 "not found") is a name typed wrong when the listing says so.
      const values = await complete(server, c, limits).catch(async (e: unknown) => {
        if (c.ref.type === 'ref/prompt' && offersCompletions(server)) await noSuggestion(server, c, limits);
        throw e;
      });
      if (!values.length) io.stderr.write(`${oneLine(await noSuggestion(server, c, limits), 2000)}\n`);
      io.stdout.write(opts.json ? toJson(values) : values.map((v) => `${oneLine(v, 10_000)}\n`).join(''));
      return EXIT.ok;
    }
    if (c.kind === 'tasks') {
      if (c.action !== 'cancel') followed = new FollowedTasks(cliTaskRecords(), server.transport);
      return await runTasksCommand(conn, c, opts, io, followed);
    }
    if (c.kind === 'ping') {
      io.stdout.write(`${await ping(conn, { signal: io.signal, timeoutMs: opts.timeoutMs })}\n`);
      return EXIT.ok;
    }
    // On a terminal, a prompt's arguments or a template's variables not given are asked, Tab completing them.
    const askIo = { ask, out: io.stderr, signal: io.signal ?? new AbortController().signal, timeoutMs: opts.timeoutMs };
    if (c.kind === 'prompt' && interactive) c.args = await askPromptArguments(conn, c.name, c.args, askIo);
    if (c.kind === 'read' && interactive && variablesOf(c.uri).length)
      c.args = await askTemplateVariables(conn, c.uri, c.args ?? {}, askIo);
    const { method, params } = saved ?? requestOf(c);
    const callOptions: RoundTripOptions = {
      maxRounds: opts.maxRounds,
      timeoutMs: opts.timeoutMs,
      legIdleMs: opts.legIdleMs,
      signal: io.signal,
      onEvent: log,
      // Progress is always asked for (it keeps a long leg within its idle limit); --quiet only hides it.
      onProgress: (p) => {
        if (!opts.quiet) io.stderr.write(`${progressLine(p)}\n`);
      },
    };
    // A tool call may run as a task (core/tasks): followed to its result, its status on stderr, its id
    // kept for `tasks list` and `tasks result` from another process.
    const keeper = method === 'tools/call' ? new FollowedTasks(cliTaskRecords(), server.transport) : undefined;
    followed = keeper;
    const r: ToolCallResult =
      method === 'tools/call'
        ? await callToolFollowingTasks(conn, params, {
            ...callOptions,
            wait: !opts.noWait,
            onTask: (t) => {
              keeper?.keep(t, String(params.name), true);
              if (!opts.quiet) io.stderr.write(`${taskLine(t)}\n`);
            },
          })
        : await callWithRoundTrips(conn, method, params, callOptions);
    if (opts.noWait && r.task && r.task.status !== 'completed') {
      io.stdout.write(opts.json ? toJson({ taskId: r.task.id, status: r.task.status }) : `${r.task.id}\n`);
      return EXIT.ok;
    }
    // Piped text stays exactly what the server sent; on a terminal, server text cannot drive the terminal.
    const text = resultToText(method, shownResult(method, r.result));
    io.stdout.write(opts.json ? toJson(r.result) : (io.stdoutIsTTY ? terminalText(text, '') : text) + '\n');
    return r.result.isError === true ? EXIT.error : EXIT.ok;
  } catch (e) {
    if (followed && conn) for (const line of await followed.stoppedFollowing(conn, e, io.killSignal)) io.stderr.write(`${line}\n`);
    if (e instanceof HostError) {
      // A call's failure already has its line in the round-trip log; anything else is said here.
      if (!flowErrorLogged) io.stderr.write(`mcp-roundtrip: ${oneLine(runErrorText(e), 2000)}\n`);
      const hint = rootsHint(e, opts.roots);
      if (hint) io.stderr.write(`mcp-roundtrip: ${hint}\n`);
      return exitCodeFor(e.kind);
    }
    io.stderr.write(`mcp-roundtrip: ${oneLine(errorMessage(e), 2000)}\n`);
    return EXIT.error;
  } finally {
    await (io.killSignal?.aborted ? conn?.kill() : conn?.closeWithin(SERVER_STOP_GRACE_MS));
    for (const line of followed?.serverStopped() ?? []) io.stderr.write(`${line}\n`);
    unlistenKill?.();
    // Started for a command that never connected to it (a bad answers file, a saved call's own server).
    const unused = take();
    if (unused) signalProcessGroup(unused.child, 'SIGTERM');
  }
}

/**
 * One progress update as a line: `progress 3/7: <message>`, `progress 42%` (a total of 100), or
 * `progress 3` (no total); the server's message on one line, control characters as spaces.
 */
export function progressLine(p: { progress: number; total?: number; message?: string }): string {
  const n = (x: number) => (Number.isFinite(x) ? String(Math.round(x * 100) / 100) : '?');
  const figure = p.total === undefined ? n(p.progress) : p.total === 100 ? `${n(p.progress)}%` : `${n(p.progress)}/${n(p.total)}`;
  return `progress ${figure}${typeof p.message === 'string' && p.message ? `: ${oneLine(p.message, 500)}` : ''}`;
}

/** True when `path` is an existing directory. */
function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The request of `call`, `prompt` or `read`. */
function requestOf(c: Command): { method: MrtrMethod; params: Record<string, unknown> } {
  if (c.kind === 'call') return { method: 'tools/call', params: { name: c.name, arguments: c.args } };
  if (c.kind === 'prompt') return { method: 'prompts/get', params: { name: c.name, arguments: c.args } };
  if (c.kind === 'read') return { method: 'resources/read', params: { uri: uriToRead(c.uri, c.args) } };
  throw new Error(`${c.kind} is not a call`);
}

/** One line per listed item, whatever its strings hold (line breaks, escape sequences, bidi overrides); a tool that needs or accepts tasks marked `[task: required]`. */
function listLine(i: Record<string, unknown>): string {
  const flat = (v: unknown) => oneLine(String(v), 100_000);
  const name = flat(i.name ?? i.uri ?? '?');
  const extra = [taskMark(i), i.title, i.uri && i.name ? i.uri : undefined, i.uriTemplate, i.description, appMark(i)]
    .filter((x) => typeof x === 'string' && x)
    .map(flat)
    .join(' — ');
  return extra ? `${name}\t${extra}` : name;
}

/**
 * `tasks get|cancel|result <taskId>`: the task's status line (`get`), `tasks/cancel` sent (`cancel`), or
 * its result once it ends, answering what it asks as `call` does (`result`).
 */
async function runTasksCommand(
  conn: ServerConnection,
  c: Extract<Command, { kind: 'tasks' }>,
  opts: CliOptions,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; stdoutIsTTY?: boolean; signal?: AbortSignal },
  followed?: FollowedTasks,
): Promise<number> {
  const limits = { signal: io.signal, timeoutMs: opts.timeoutMs };
  const known = cliTaskRecords().get(conn.name, c.id);
  if (c.action === 'cancel') {
    await conn.ensureConnected(io.signal);
    await cancelTask(conn, c.id, io.signal);
    io.stderr.write(`${cliText('task {0}: tasks/cancel sent to {1}', oneLine(c.id, 200), conn.name)}\n`);
    return EXIT.ok;
  }
  // A kept task is read again: its record says what the server says now.
  const keep = (t: Task) => (known ? followed?.keep(t, known.tool) : undefined);
  const { task, raw } = await fetchTask(conn, c.id, limits).catch((e: unknown) => {
    throw goneWithItsServer(e, known);
  });
  keep(task);
  if (c.action === 'get') {
    io.stdout.write(opts.json ? toJson(task) : `${taskLine(task)}\n`);
    return EXIT.ok;
  }
  if (known) followed?.follows(task);
  const r = await followTask(conn, task, {
    ...limits,
    created: raw,
    legIdleMs: opts.legIdleMs,
    onTask: (t) => {
      keep(t);
      if (!opts.quiet) io.stderr.write(`${taskLine(t)}\n`);
    },
    target: known ? known.tool : `task ${c.id}`,
  });
  const text = resultToText('tools/call', shownResult('tools/call', r.result));
  io.stdout.write(opts.json ? toJson(r.result) : (io.stdoutIsTTY ? terminalText(text, '') : text) + '\n');
  return r.result.isError === true ? EXIT.error : EXIT.ok;
}

/**
 * The error of reading a kept task its server does not know: when the record says its stdio server
 * exited, the message says so (a new server process does not know its predecessor's tasks).
 */
function goneWithItsServer(e: unknown, known: TaskRecord | undefined): unknown {
  if (known?.note !== 'serverExited' || !isHostError(e, 'server') || e.code !== -32602) return e;
  return new HostError(
    'server',
    `${e.message}; the stdio server that ran it exited with the CLI process that started it, and the task went with it`,
    e.code,
    e.data,
  );
}

/**
 * JSON for stdout: the same value, with the characters JSON.stringify leaves raw that a terminal
 * acts on (C1 controls such as CSI U+009B, line separators, bidi overrides) written as \uXXXX escapes.
 */
function toJson(value: unknown): string {
  return (
    JSON.stringify(value, null, 2).replace(
      /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ) + '\n'
  );
}

/** Why the run was cancelled when its standard output closed (a template of messages.ts). */
const STDOUT_CLOSED = 'cancelled: the standard output was closed';

/**
 * Run the CLI as the `mcp-roundtrip` process: argv, stdio, Ctrl-C (the first cancels the call, the
 * second stops the server at once), exit code.
 * @param prestarted the `--stdio` server the executable already started (`bin.ts`); it is killed
 *   when the host never takes it (e.g. a bad answers file)
 */
export function runAsExecutable(prestarted?: PrestartedProcess): void {
  // One call: zod's schema compilation (new Function per schema, on first use) costs more than it saves.
  zodConfig({ jitless: true });
  const ac = new AbortController();
  const kill = new AbortController();
  const interrupt = () => (ac.signal.aborted ? kill.abort() : ac.abort());
  process.on('SIGINT', interrupt);
  // A reader that closed stderr (`2>&1 | head -1`) loses the log, never the call: an unhandled
  // EPIPE would end the process at once, before the server is stopped.
  process.stderr.on('error', () => {});
  // A reader that closed stdout (`| true`) takes no result: the call is cancelled and the server
  // stopped as for Ctrl-C, never an unhandled EPIPE that leaves the server running. (Ctrl-C aborts
  // with no reason; this one says its own, so a question open at the terminal is not said to be Ctrl-C's.)
  // Any other failure to write it (a full disk, EIO) is no reader's choice: the run ends as an error that says so.
  let stdoutError: NodeJS.ErrnoException | undefined;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    stdoutError ??= e;
    ac.abort(new HostError('cancelled', STDOUT_CLOSED));
  });
  const io = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: !!process.stdin.isTTY,
    stdoutIsTTY: !!process.stdout.isTTY,
    signal: ac.signal,
    killSignal: kill.signal,
    interrupt,
    prestarted,
  };
  const exit = (code: number) => {
    process.exitCode = code;
    // Handles (stdin in interactive mode) must not keep the process alive.
    setImmediate(() => process.exit(code));
  };
  runCli(process.argv.slice(2), io).then(
    // What was written last may fail only once flushed: output its reader did not take (`| head -1`
    // of a listing longer than the pipe holds) ends the run as cancelled (130), never 0, and as quietly as a
    // Unix tool that a closed pipe stops: the reader closed it on purpose.
    (code) =>
      process.stdout.write('', () => {
        if (!stdoutError) return exit(code);
        if (stdoutError.code === 'EPIPE') return exit(code === EXIT.ok ? EXIT.cancelled : code);
        process.stderr.write(`mcp-roundtrip: ${cliText('the output could not be written: {0}', oneLine(stdoutError.message, 300))}\n`);
        exit(code === EXIT.ok || code === EXIT.cancelled ? EXIT.error : code);
      }),
    (e) => {
      process.stderr.write(`mcp-roundtrip: ${errorMessage(e)}\n`);
      process.exit(EXIT.error);
    },
  );
}

if (require.main === module) runAsExecutable();
