/**
 * Running the host against the hostile servers of test/fixtures/hostile/: the CLI in this process
 * (`runCli`, the same core as the extension), or as a real process whose peak memory is measured.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { quote } from 'shell-quote';
import { runCli } from '../../src/cli/main';
import { DIST, ROOT } from './build';

/** The `--stdio` command line of the hostile stdio server in `mode`. */
export function hostileStdio(mode: string, arg?: string): string {
  return quote([process.execPath, join(ROOT, 'test', 'fixtures', 'hostile', 'stdioServer.mjs'), mode, ...(arg !== undefined ? [arg] : [])]);
}

/** What a CLI run printed and returned. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
  /** Wall time of the run, ms. */
  ms: number;
}

/**
 * Run the CLI in this process.
 * @param opts.cancelWhen cancels the run (a Ctrl-C) as soon as its stderr matches (a state, not a time)
 */
export async function runHostCli(args: string[], opts: { cancelWhen?: RegExp } = {}): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const cancel = new AbortController();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => {
    err += d.toString();
    if (opts.cancelWhen?.test(err) && !cancel.signal.aborted) cancel.abort();
  });
  const started = Date.now();
  const code = await runCli(args, { stdout, stderr, stdinIsTTY: false, signal: cancel.signal });
  return { code, out, err, ms: Date.now() - started };
}

/** Internal JavaScript errors that must never reach what the host prints. */
export const INTERNAL_ERROR_TEXT =
  /RangeError|TypeError|ReferenceError|SyntaxError|Cannot read properties|Maximum call stack|Invalid string length|Cannot create a string|"code":\s*"invalid_|invalid_type|invalid_union/;

/** A run of the built CLI as its own process, with its peak resident memory. */
export interface MeasuredRun extends CliRun {
  /** The CLI process's peak resident set (VmHWM), MiB. */
  peakMiB: number;
}

/**
 * Run `dist/cli.js` with `args` as a child process and measure its peak resident memory (VmHWM of
 * /proc/self/status, read as it exits, by test/fixtures/hostile/peakRss.cjs).
 */
export function runMeasuredCli(args: string[], env: Record<string, string> = {}): Promise<MeasuredRun> {
  const report = join(ROOT, 'out', `peak-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--require', join(ROOT, 'test', 'fixtures', 'hostile', 'peakRss.cjs'), join(DIST, 'cli.js'), ...args],
      {
        env: { ...process.env, ...env, MCP_RT_PEAK_RSS_FILE: report },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      let peakMiB = NaN;
      try {
        peakMiB = Number(readFileSync(report, 'utf8')) / 1024;
      } catch {
        /* no report: NaN fails the caller's check */
      }
      resolve({ code: code ?? -1, out, err, ms: Date.now() - started, peakMiB });
    });
  });
}
