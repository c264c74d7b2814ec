/**
 * `mcp-roundtrip`: a headless MCP host over the same core as the extension. Result on stdout,
 * the round-trip log on stderr (one line per leg). Exit codes in `exitCodes.ts`.
 */
import type { ChildProcess } from 'node:child_process';
import { config as zodConfig } from 'zod/v4/core';
import { ServerConnection } from '../core/connection/serverConnection';
import { HostError, errorMessage } from '../core/util/errors';
import type { HostEvent } from '../core/log/events';
import { callWithRoundTrips } from '../core/mrtr/driver';
import { resultToText } from '../core/results/resultText';
import { formatEvent, oneLine } from '../core/log/traceLog';
import { parseCli, USAGE, UsageError, type CliOptions } from './args';
import { EXIT, exitCodeFor } from './exitCodes';
import { loadAnswers, scriptedInputs } from './scriptedInputs';
import { terminalInputs, terminalText } from './terminalInputs';
import { checkFormContent } from '../core/elicitation/formCheck';

const ROUND_TRIP_KINDS = new Set(['request', 'inputRequired', 'answer', 'retry', 'complete', 'error', 'warning', 'pushed']);

/** Run the CLI; resolves to the exit code. Never calls process.exit itself (testable). */
export async function runCli(
  argv: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; stdinIsTTY: boolean; stdoutIsTTY?: boolean; signal?: AbortSignal; prestarted?: ChildProcess },
): Promise<number> {
  let opts: CliOptions;
  try {
    opts = parseCli(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      // --help is asked for: the usage is the output (stdout). A mistake: message and usage on stderr.
      if (!e.message) {
        io.stdout.write(`${USAGE}\n`);
        return EXIT.ok;
      }
      io.stderr.write(`mcp-roundtrip: ${e.message}\n${USAGE}\n`);
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
  // The executable's early server: for this command's first connection only.
  let early = opts.server.transport === 'stdio' ? io.prestarted : undefined;
  const take = () => {
    const child = early;
    early = undefined;
    return child;
  };
  try {
    const answers = opts.answersFile ? loadAnswers(opts.answersFile) : {};
    const interactive = io.stdinIsTTY && !opts.answersFile;
    const provider = scriptedInputs(answers, opts.roots, interactive ? terminalInputs(io.stderr) : undefined, checkFormContent);
    const spec = early && opts.server.transport === 'stdio' ? { ...opts.server, prestarted: take } : opts.server;
    conn = new ServerConnection(spec, { provider, onEvent: log, checkFormContent });
    const c = opts.command;
    if (c.kind === 'list') {
      const items = (await conn.list(c.what)) as Record<string, unknown>[];
      io.stdout.write(opts.json ? toJson(items) : items.map((i) => listLine(i)).join('\n') + (items.length ? '\n' : ''));
      return EXIT.ok;
    }
    const [method, params] =
      c.kind === 'call'
        ? (['tools/call', { name: c.name, arguments: c.args }] as const)
        : c.kind === 'prompt'
          ? (['prompts/get', { name: c.name, arguments: c.args }] as const)
          : (['resources/read', { uri: c.uri }] as const);
    const r = await callWithRoundTrips(conn, method, params, { maxRounds: opts.maxRounds, timeoutMs: opts.timeoutMs, signal: io.signal, onEvent: log });
    // Piped text stays exactly what the server sent; on a terminal, server text cannot drive the terminal.
    const text = resultToText(method, r.result);
    io.stdout.write(opts.json ? toJson(r.result) : (io.stdoutIsTTY ? terminalText(text, '') : text) + '\n');
    return r.result.isError === true ? EXIT.error : EXIT.ok;
  } catch (e) {
    if (e instanceof HostError) {
      // A call's failure already has its line in the round-trip log; anything else is said here.
      if (!flowErrorLogged) io.stderr.write(`mcp-roundtrip: ${oneLine(e.message, 2000)}\n`);
      return exitCodeFor(e.kind);
    }
    io.stderr.write(`mcp-roundtrip: ${oneLine(errorMessage(e), 2000)}\n`);
    return EXIT.error;
  } finally {
    await conn?.close();
    take()?.kill();
  }
}

/** One line per listed item, whatever its strings hold (line breaks, escape sequences, bidi overrides). */
function listLine(i: Record<string, unknown>): string {
  const flat = (v: unknown) => oneLine(String(v), 100_000);
  const name = flat(i.name ?? i.uri ?? '?');
  const extra = [i.title, i.uri && i.name ? i.uri : undefined, i.description].filter((x) => typeof x === 'string' && x).map(flat).join(' — ');
  return extra ? `${name}\t${extra}` : name;
}

/**
 * JSON for stdout: the same value, with the characters JSON.stringify leaves raw that a terminal
 * acts on (C1 controls such as CSI U+009B, line separators, bidi overrides) written as \uXXXX escapes.
 */
function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';
}

/**
 * Run the CLI as the `mcp-roundtrip` process: argv, stdio, Ctrl-C, exit code.
 * @param prestarted the `--stdio` server the executable already started (`bin.ts`); it is killed
 *   when the host never takes it (e.g. a bad answers file)
 */
export function runAsExecutable(prestarted?: ChildProcess): void {
  // One call: zod's schema compilation (new Function per schema, on first use) costs more than it saves.
  zodConfig({ jitless: true });
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort());
  const io = { stdout: process.stdout, stderr: process.stderr, stdinIsTTY: !!process.stdin.isTTY, stdoutIsTTY: !!process.stdout.isTTY, signal: ac.signal, prestarted };
  runCli(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
      // Handles (stdin in interactive mode) must not keep the process alive.
      setImmediate(() => process.exit(code));
    },
    (e) => {
      process.stderr.write(`mcp-roundtrip: ${errorMessage(e)}\n`);
      process.exit(EXIT.error);
    },
  );
}

if (require.main === module) runAsExecutable();
