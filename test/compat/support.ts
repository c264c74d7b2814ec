/**
 * Running the built CLI (`dist/cli.js`) against real MCP servers installed from npm (devDependencies,
 * pinned): each case asserts what the real server really answered. No network: every server runs
 * here, over stdio or on a loopback port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { quote } from 'shell-quote';

export const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');

/** The command line of a server package's bin, run by this Node (`args` appended). */
export function serverCommand(pkg: string, bin: string, ...args: string[]): string {
  return [JSON.stringify(process.execPath), JSON.stringify(path.join(ROOT, 'node_modules', pkg, bin)), ...args].join(' ');
}

/** What one CLI run printed, and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run the CLI with `args` (no terminal: stdin is closed) until it exits.
 * @param env added to this process's environment (the server inherits it)
 * @throws when it has not exited within `timeoutMs` (it is killed then)
 */
export function cli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mcp-roundtrip ${args.join(' ')} did not exit within ${timeoutMs} ms; stderr:\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A new temporary directory. */
export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `mcp-roundtrip-compat-${prefix}-`));
}

/** `value` written as JSON to a new file in a temporary directory; its path. */
export function jsonFile(name: string, value: unknown): string {
  const file = path.join(tempDir('file'), name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/** A loopback port free at the moment it is asked for. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Start a server process that listens on HTTP and resolve once it printed `ready` on stderr or stdout.
 * @throws when it exits first, or has not printed `ready` within 30 s
 */
export function startHttpServer(command: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not say it was ready within 30 s:\n${seen}`));
    }, 30_000);
    const watch = (d: Buffer) => {
      seen += d.toString();
      if (!ready.test(seen)) return;
      clearTimeout(timer);
      resolve(child);
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code}) before it was ready:\n${seen}`));
    });
  });
}

/** What the CLI wrote on stdout with `--json`: one JSON document. */
export function json(run: CliRun): unknown {
  return JSON.parse(run.stdout);
}

/** What one CLI run at a terminal showed: `screen` is the terminal (stderr, the questions and what was typed), `stdout` the result. */
export interface TerminalRun extends CliRun {
  screen: string;
}

/**
 * Run the CLI with a pseudo-terminal as its stdin and stderr (util-linux `script`), stdout to a file,
 * until it exits. `react(screen, type)` is called with the terminal's whole text (line ends as `\n`)
 * each time it grows, and may type on it.
 * @throws when it has not exited within `timeoutMs` (it is killed then)
 */
export function cliAtTerminal(
  args: string[],
  react: (screen: string, type: (text: string) => void) => void,
  timeoutMs = 60_000,
): Promise<TerminalRun> {
  const out = path.join(tempDir('tty'), 'stdout.txt');
  const command = `${quote([process.execPath, CLI, ...args])} >${quote([out])}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    const type = (text: string) => child.stdin.write(text);
    const grow = (d: Buffer) => {
      // The line editor's cursor moves and clears are not text.
      screen += d
        .toString()
        .replace(/\r+\n/g, '\n')
        .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g'), '');
      react(screen, type);
    };
    child.stdout.on('data', grow);
    child.stderr.on('data', grow);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mcp-roundtrip ${args.join(' ')} at a terminal did not exit within ${timeoutMs} ms; the terminal:\n${screen}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, stdout: readFileSync(out, 'utf8'), stderr: screen, screen });
    });
  });
}

/** One question of a terminal dialog and what is typed to it (`afterMs` later: the person's pace, part of the scenario). */
export interface Reply {
  when: RegExp;
  type: string;
  afterMs?: number;
}

/**
 * A `react` for {@link cliAtTerminal} that answers `replies` in order: each is typed once its question
 * shows on the terminal after the previous reply was typed.
 * @param onAsked called with the reply's index as its question shows (before any `afterMs`)
 */
export function answering(replies: Reply[], onAsked?: (index: number) => void): (screen: string, type: (text: string) => void) => void {
  let next = 0;
  let from = 0;
  let pending = false;
  let latest = '';
  return (screen, type) => {
    latest = screen;
    const reply = replies[next];
    if (!reply || pending || !reply.when.test(screen.slice(from))) return;
    onAsked?.(next);
    const send = () => {
      pending = false;
      next++;
      from = latest.length;
      type(reply.type);
    };
    if (reply.afterMs) {
      pending = true;
      setTimeout(send, reply.afterMs);
    } else send();
  };
}
