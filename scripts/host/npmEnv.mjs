// The environment for an npm install that this project starts on its own (Node 24, code-server).
//
// Under `npm test` or `npm start` the outer npm has put its own view of the world into the environment:
// `npm_config_user_agent` (which names the outer Node, and which code-server's postinstall reads as "the
// Node you are on"), `npm_config_nodedir`, `npm_node_execpath`, `NODE`, `INIT_CWD`, and PATH entries for the
// project's node_modules/.bin and the outer npm's node-gyp shim. An inner install must see none of them: it
// runs another Node, in another folder, and its own npm sets what it needs.
import path from 'node:path';

/** PATH entries that `npm run` adds: every `…/node_modules/.bin` up the tree and npm's node-gyp shim. */
function isNpmRunPathEntry(entry) {
  const norm = entry.replace(/\\/g, '/').replace(/\/+$/, '');
  return norm.endsWith('/node_modules/.bin') || norm === 'node_modules/.bin' || norm.endsWith('/run-script/lib/node-gyp-bin');
}

/**
 * A copy of `base` without anything an outer npm put there, then `extra` on top (what the caller sets on
 * purpose, e.g. `npm_config_nodedir` for the Node whose headers a native build needs).
 * Removed: every `npm_*` variable (any case: `npm_config_*`, `npm_lifecycle_*`, `npm_package_*`,
 * `npm_execpath`, `npm_node_execpath`, `npm_command`), `NODE`, `INIT_CWD`, and the PATH entries `npm run` adds.
 * @param {NodeJS.ProcessEnv} [base] the environment to start from (default: this process's)
 * @param {Record<string, string>} [extra] variables to set after cleaning
 * @returns {Record<string, string>} a new object; `base` is not changed
 */
export function cleanNpmEnv(base = process.env, extra = {}) {
  /** @type {Record<string, string>} */
  const env = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined || /^npm_/i.test(k) || k === 'NODE' || k === 'INIT_CWD') continue;
    env[k] = v;
  }
  const pathKey = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  if (env[pathKey] !== undefined) {
    env[pathKey] = env[pathKey]
      .split(path.delimiter)
      .filter((e) => e && !isNpmRunPathEntry(e))
      .join(path.delimiter);
  }
  return { ...env, ...extra };
}
