/**
 * A stdio transport over a server process that was started before the host had loaded: the CLI's
 * executable starts the `--stdio` command first thing (`cli/bin.ts`), so that the server's own start
 * (its Node, its bundle) runs while the host's bundle loads instead of after it. It speaks exactly as
 * the SDK's `StdioClientTransport` (newline-delimited JSON-RPC, the SDK's `ReadBuffer` and
 * `serializeMessage`) and closes the same way: stdin ended, then SIGTERM, then SIGKILL.
 *
 * Spec: MCP 2026-07-28 "Transports" (stdio).
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';

/** How long each step of closing waits for the process to exit (as the SDK's stdio transport), ms. */
const CLOSE_STEP_MS = 2000;

/** A {@link Transport} over an already spawned child process with piped stdin, stdout and stderr. */
export class PrestartedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private process?: ChildProcess;
  private readonly readBuffer = new ReadBuffer();
  private readonly spawned: Promise<void>;

  /** @param child spawned with `stdio: ['pipe', 'pipe', 'pipe']`; its `spawn` or `error` may already have fired */
  constructor(child: ChildProcess) {
    this.process = child;
    // Listen at once: the process may fail to start (or exit) before start() is called.
    this.spawned = new Promise<void>((resolve, reject) => {
      if (child.pid !== undefined) resolve();
      child.once('spawn', () => resolve());
      child.once('error', reject);
    });
    this.spawned.catch(() => {});
    child.on('error', (error) => this.onerror?.(error));
    child.on('close', () => {
      this.process = undefined;
      this.onclose?.();
    });
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('error', (error) => this.onerror?.(error));
  }

  /** The server's stderr (read by the host line by line). */
  get stderr(): Readable | null {
    return this.process?.stderr ?? null;
  }

  /** The server's process id. */
  get pid(): number | null {
    return this.process?.pid ?? null;
  }

  /** Resolves once the process has started. @throws the spawn error (e.g. ENOENT for an unknown command) */
  async start(): Promise<void> {
    await this.spawned;
    this.process?.stdout?.on('data', (chunk: Buffer) => {
      try {
        this.readBuffer.append(chunk);
        for (let message = this.readBuffer.readMessage(); message !== null; message = this.readBuffer.readMessage()) this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
        void this.close().catch(() => {});
      }
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.process?.stdin;
      if (!stdin) return reject(new Error('Not connected'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** End stdin and wait for the process to exit; SIGTERM, then SIGKILL, when it does not. */
  async close(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    this.readBuffer.clear();
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const within = (ms: number) => Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);
    try {
      child.stdin?.end();
    } catch {
      /* already gone */
    }
    await within(CLOSE_STEP_MS);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await within(CLOSE_STEP_MS);
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
