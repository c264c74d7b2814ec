/**
 * The stdio transport of the host: the server as a child process speaking newline-delimited
 * JSON-RPC on stdin/stdout, its stderr read as log lines. Ours rather than the SDK's
 * `StdioClientTransport` because that one gives no hold on what a server writes: it buffers a line
 * until its 10 MiB bound and then closes the connection, drops a line that is not JSON without a
 * word (the request it answered waits for its time limit), reads stderr without any bound, and has
 * no way to stop a server at once. Here:
 *
 * - a stdout line is held up to {@link MAX_MESSAGE_BYTES}; a longer one is dropped unread and the
 *   request it answers (its id, from the first bytes) fails at once; when no id can be told, the
 *   connection is closed, which fails every request in flight;
 * - each line is checked (`stdoutLines.ts`, `incoming.ts`): an unreadable answer fails its request at once;
 * - a stderr line is held up to {@link MAX_STDERR_LINE_BYTES}, the rest of it dropped;
 * - what waits to be written to a server that does not read is bounded too (twice the message limit);
 * - {@link close} asks the server to stop (stdin closed, then SIGTERM, then SIGKILL, 2 s apart, as the
 *   SDK does); {@link kill} stops it at once.
 *
 * It has `stderr` and `pid` like the SDK's class, so the SDK treats it as stdio (a probe that times
 * out means a 2025-era server), and probes in place: the server is started once.
 *
 * Spec: MCP 2026-07-28 "Transports", stdio: messages are delimited by newlines; the server may write
 * logs to stderr; the client closes stdin, then SIGTERM, then SIGKILL.
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import spawn from 'cross-spawn';
import { SdkError, SdkErrorCode, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { MAX_MESSAGE_BYTES, MAX_STDERR_LINE_BYTES } from '../limits';
import { HostError } from '../util/errors';
import { BoundedLines } from './boundedLines';
import { OWN_PROCESS_GROUP, signalProcessGroup } from './processGroup';
import { stdoutLines } from './stdoutLines';

/**
 * A stdio server process started before the host had loaded: the CLI's executable (`cli/bin.ts`)
 * starts the `--stdio` command first thing, so that the server's own start runs while the host loads.
 */
export interface PrestartedProcess {
  /** Spawned with stdin, stdout and stderr piped; nothing read from it yet. */
  child: ChildProcess;
  /** Settles when it has started; rejects with its spawn error (e.g. ENOENT for an unknown command). */
  spawned: Promise<void>;
}

/** How to start a stdio server, and where its stderr lines go. */
export interface StdioTransportOptions {
  /** The server's name, for messages. */
  server: string;
  command: string;
  args: string[];
  /** The whole environment of the child. */
  env: Record<string, string>;
  cwd?: string;
  /** Each line the server writes on stderr; `cut` when it was longer than {@link MAX_STDERR_LINE_BYTES}. */
  onStderr: (line: string, cut: boolean) => void;
  /** A line on stdout that could not be read, as a sentence fragment (for the server's diagnostics). */
  onUnreadable: (reason: string) => void;
  /** Bytes read from stdout. */
  onBytes?: (count: number) => void;
  /** The process of this very command, already started: used instead of spawning one. */
  prestarted?: PrestartedProcess;
}

/** How long {@link StdioTransport.close} waits after each step before the next, ms (the SDK's value). */
const STOP_STEP_MS = 2000;

const MIB = 1024 * 1024;

/** Most bytes waiting in a server's stdin before further messages are refused: two of the largest messages. */
const MAX_UNREAD_BYTES = 2 * MAX_MESSAGE_BYTES;

/** One stdio server process as an SDK transport. */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ChildProcess;
  /** Settles when the child has exited and its streams are read to their end. */
  private closed?: Promise<void>;
  private readonly stdout: BoundedLines;
  /** Sends waiting for stdin to drain. */
  private drainWaiters: (() => void)[] = [];
  private readonly stderrLines: BoundedLines;

  constructor(private readonly options: StdioTransportOptions) {
    this.stdout = new BoundedLines(
      MAX_MESSAGE_BYTES,
      stdoutLines({
        deliver: (m) => this.onmessage?.(m),
        unreadable: (reason) => options.onUnreadable(reason),
        giveUp: () => void this.kill(),
      }),
    );
    this.stderrLines = new BoundedLines(MAX_STDERR_LINE_BYTES, (line, cut) =>
      options.onStderr(line.toString('utf8').replace(/\r$/, ''), cut),
    );
  }

  /** The child's stderr (read by this transport). */
  get stderr(): Readable | null {
    return this.child?.stderr ?? null;
  }

  /** The child's process id, once started. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('the stdio transport was already started');
    const { command, args, env, cwd, prestarted } = this.options;
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child =
          prestarted?.child ??
          spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], shell: false, windowsHide: true, detached: OWN_PROCESS_GROUP });
      } catch (e) {
        // Thrown rather than emitted (ENOTDIR, E2BIG), the error names no command: it is given one.
        if (e && typeof e === 'object' && !('path' in e)) Object.assign(e, { path: command });
        throw e;
      }
      this.child = child;
      this.closed = new Promise((done) => child.once('close', () => done()));
      // A prestarted process may have started (or failed to) before anyone listened here.
      if (prestarted) prestarted.spawned.then(resolve, reject);
      else child.once('spawn', () => resolve());
      child.on('error', (e) => {
        reject(e);
        this.onerror?.(e);
      });
      child.once('close', () => {
        this.stderrLines.end();
        if (this.child === child) this.child = undefined;
        this.onclose?.();
      });
      // A server that exits while a process it started still holds its pipes: its streams end here.
      child.once('exit', () => setTimeout(() => (child.stdout?.destroy(), child.stderr?.destroy()), STOP_STEP_MS).unref());
      child.stdin?.on('error', (e) => this.onerror?.(e));
      child.stdout?.on('data', (chunk: Buffer) => {
        this.options.onBytes?.(chunk.length);
        this.stdout.push(chunk);
      });
      child.stdout?.on('error', (e) => this.onerror?.(e));
      // A server that closes its stdout but runs on can never answer: it is stopped, so that the
      // requests in flight fail now rather than at their time limit (an exiting one is left to exit).
      child.stdout?.once('end', () =>
        setTimeout(() => {
          if (child.exitCode !== null || child.signalCode !== null || this.child !== child) return;
          this.options.onUnreadable('the server closed its stdout but kept running: it was stopped');
          void this.kill();
        }, STOP_STEP_MS).unref(),
      );
      child.stderr?.on('data', (chunk: Buffer) => this.stderrLines.push(chunk));
      child.stderr?.on('error', () => {});
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writable) return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
    // What waits in the pipe is the host's memory: a server that does not read cannot make it grow.
    if (stdin.writableLength > MAX_UNREAD_BYTES)
      return Promise.reject(
        new HostError(
          'connection',
          `${this.options.server} does not read what the host sends (more than ${MAX_UNREAD_BYTES / MIB} MiB wait in its input)`,
        ),
      );
    if (stdin.write(JSON.stringify(message) + '\n')) return Promise.resolve();
    // One 'drain' listener for every write waiting on it: a listener per write costs a splice each
    // (quadratic when a server that reads slowly is sent thousands of messages).
    return new Promise((resolve) => {
      if (this.drainWaiters.push(resolve) > 1) return;
      stdin.once('drain', () => {
        const waiting = this.drainWaiters;
        this.drainWaiters = [];
        for (const done of waiting) done();
      });
    });
  }

  /** Ask the server to stop: stdin closed, then SIGTERM, then SIGKILL, each after {@link STOP_STEP_MS}. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const closed = this.closed!;
    const gone = () => child.exitCode !== null || child.signalCode !== null;
    const step = () => Promise.race([closed, new Promise<void>((r) => setTimeout(r, STOP_STEP_MS).unref())]);
    try {
      child.stdin?.end();
    } catch {
      /* already closed */
    }
    await step();
    if (!gone()) signalProcessGroup(child, 'SIGTERM');
    if (!gone()) await step();
    if (!gone()) signalProcessGroup(child, 'SIGKILL');
    await closed;
    // What the server started and left behind (a wrapper such as `sh -c` gone, its child still there).
    signalProcessGroup(child, 'SIGKILL');
  }

  /** Stop the server at once (SIGKILL); resolves when it has exited. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    signalProcessGroup(child, 'SIGKILL');
    await this.closed;
  }
}
