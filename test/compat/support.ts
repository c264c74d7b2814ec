/**
 * Running the built CLI (`dist/cli.js`) against real MCP servers installed from npm (devDependencies,
 * pinned): each case asserts what the real server really answered. No network: every server runs
 * here, over stdio or on a loopback port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

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
