#!/usr/bin/env node
// Starts code-server (a real VS Code: server + web workbench) on 127.0.0.1 with an extension loaded, for tests
// driven through a browser (see test/e2e/harness.ts) or for a person to look at.
//
//   import { launchCodeServer } from './launch.mjs';
//   const host = await launchCodeServer({ workspace, extensionDirs: [repoRoot] });  // ... await host.stop();
//
//   node scripts/host/launch.mjs --workspace <dir> --extension <dir> [--extension <dir>] [--vsix <file>]
//        [--trust] [--port <n>] [--user-data-dir <dir>] [--settings <file.json>]
//     prints the URL and stays up until Ctrl-C.
//
// The extension host starts only when a browser opens the workbench; its logs land under
// <userDataDir>/logs/<timestamp>/ (exthost*/remoteexthost.log, exthost*/output_logging_*/, and one folder per
// extension that logs through a LogOutputChannel); code-server's own output is in <logsDir>/code-server.log.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, createWriteStream, realpathSync } from 'node:fs';
import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHost } from './install.mjs';
import { cleanNpmEnv } from './npmEnv.mjs';

/** Settings that keep the workbench quiet and deterministic for tests; `settings` passed in override them. */
export const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'window.restoreWindows': 'none',
  // The Chat view otherwise opens in the secondary side bar and takes the keyboard focus.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // MCP Roundtrip's walkthrough opens once by itself otherwise, and takes the focus; a test of it sets this to true.
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
};

/** The machine-scoped settings of DEFAULT_SETTINGS (or passed in) that the extension reads (see `launchCodeServer`). */
const MACHINE_SCOPED = ['workbench.welcomePage.walkthroughs.openOnInstall'];

/** Copy filter: the extension's built files, not its sources' clutter. */
const SKIP_IN_COPY = new Set(['.git', 'node_modules', '.vscode-test', 'test-results', '.cache']);

/** Asks the OS for a free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Copies a built extension folder into `extensionsDir` as `<publisher>.<name>-<version>` (how VS Code lays out
 * installed extensions). `node_modules` is left out unless `includeNodeModules` (a bundled extension needs none).
 * @returns {string} the extension's id `<publisher>.<name>`
 */
export function copyExtension(srcDir, extensionsDir, { includeNodeModules = false } = {}) {
  const pkgFile = path.join(srcDir, 'package.json');
  if (!existsSync(pkgFile)) throw new Error(`no package.json in extension folder ${srcDir}`);
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  for (const k of ['publisher', 'name', 'version']) if (!pkg[k]) throw new Error(`${pkgFile} has no "${k}"`);
  const dest = path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  const root = path.resolve(srcDir);
  cpSync(root, dest, {
    recursive: true,
    dereference: true,
    filter: (src) => {
      const rel = path.relative(root, src);
      if (!rel) return true;
      const top = rel.split(path.sep)[0];
      if (top === 'node_modules') return includeNodeModules;
      return !SKIP_IN_COPY.has(top) && !rel.endsWith('.vsix');
    },
  });
  return `${pkg.publisher}.${pkg.name}`;
}

/**
 * Register the language packs among the copied extensions (`contributes.localizations`) in
 * `<userDataDir>/languagepacks.json`, as VS Code's installer does after `--install-extension`: a copied
 * folder is not installed through it, and without the entry `--locale` falls back to English.
 * @param {string[]} extensionDirs the copied extensions' folders in `extensionsDir`
 */
function registerLanguagePacks(extensionDirs, userDataDir) {
  const packs = {};
  for (const dir of extensionDirs) {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const id = `${pkg.publisher}.${pkg.name}`;
    for (const loc of pkg.contributes?.localizations ?? []) {
      const translations = Object.fromEntries((loc.translations ?? []).map((t) => [t.id, path.join(dir, t.path)]));
      packs[loc.languageId] = {
        hash: createHash('md5').update(id).update(pkg.version).digest('hex'),
        extensions: [{ extensionIdentifier: { id }, version: pkg.version }],
        translations,
        label: loc.localizedLanguageName ?? loc.languageName,
      };
    }
  }
  if (Object.keys(packs).length) writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify(packs));
}

function httpStatus(url, timeoutMs) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/** The environment for code-server: Node 24 first on PATH, nothing that would hand it to another VS Code. */
function childEnv(nodeDir, extra = {}) {
  const env = cleanNpmEnv(process.env);
  for (const k of Object.keys(env)) {
    // VSCODE_IPC_HOOK_CLI (set in a VS Code terminal) makes code-server open the folder in *that* VS Code and
    // exit; the other VSCODE_* and ELECTRON_RUN_AS_NODE leak from a surrounding VS Code or extension test run.
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') delete env[k];
  }
  delete env.PASSWORD;
  delete env.HASHED_PASSWORD;
  env.PATH = `${path.join(nodeDir, 'bin')}${path.delimiter}${env.PATH ?? ''}`;
  // No extension gallery: code-server would otherwise query open-vsx.org (builtin extension updates) from the
  // browser, and the network here reaches nothing but the package registries.
  env.EXTENSIONS_GALLERY = '{}';
  return { ...env, ...extra };
}

function tail(file, n = 30) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n');
  } catch {
    return '';
  }
}

/**
 * Starts code-server on 127.0.0.1 and waits until it answers HTTP.
 * @param {{
 *   workspace: string,
 *   extensionDirs?: string[],
 *   vsix?: string,
 *   trust?: boolean,
 *   port?: number,
 *   locale?: string,
 *   userDataDir?: string,
 *   extensionsDir?: string,
 *   settings?: Record<string, unknown>,
 *   includeNodeModules?: boolean,
 *   startTimeoutMs?: number,
 *   env?: Record<string, string>,
 *   quiet?: boolean,
 * }} options
 *   trust: leave workspace trust on (default off: `--disable-workspace-trust`), for restricted-mode tests.
 *   port: 0 or absent for a free port.
 *   locale: VS Code's display language (code-server `--locale`, e.g. `zh-cn`): VS Code accepts it only with a language
 *     pack for it among `extensionDirs` (test/fixtures/zh-cn-language-pack, registered in languagepacks.json here);
 *     then the extension's package.nls.<locale>.json and l10n bundle are used.
 */
export async function launchCodeServer(options) {
  const { workspace, extensionDirs = [], vsix, trust = false, settings = {}, startTimeoutMs = 60_000, quiet = true } = options ?? {};
  if (!workspace) throw new Error('launchCodeServer: `workspace` is required');
  if (!existsSync(workspace)) throw new Error(`launchCodeServer: workspace ${workspace} does not exist`);
  const host = await ensureHost({ quiet });
  const t0 = Date.now();

  const root = mkdtempSync(path.join(os.tmpdir(), 'mcp-roundtrip-cs-'));
  const userDataDir = path.resolve(options.userDataDir ?? path.join(root, 'user-data'));
  const extensionsDir = path.resolve(options.extensionsDir ?? path.join(root, 'extensions'));
  const logsDir = path.join(userDataDir, 'logs');
  for (const d of [userDataDir, extensionsDir, logsDir, path.join(userDataDir, 'User'), path.join(userDataDir, 'Machine')])
    mkdirSync(d, { recursive: true });

  // User settings, before the start.
  const settingsFile = path.join(userDataDir, 'User', 'settings.json');
  let existing = {};
  try {
    existing = JSON.parse(readFileSync(settingsFile, 'utf8'));
  } catch {}
  const merged = { ...DEFAULT_SETTINGS, ...existing, ...settings };
  writeFileSync(settingsFile, JSON.stringify(merged, null, 2));
  // code-server's extension host is a remote one: a machine-scoped setting is read there from the
  // machine's settings only, never from the user's. Only those are written there, since the machine's
  // settings would also override a user setting a test changes while the host runs.
  const machine = Object.fromEntries(MACHINE_SCOPED.filter((k) => k in merged).map((k) => [k, merged[k]]));
  writeFileSync(path.join(userDataDir, 'Machine', 'settings.json'), JSON.stringify(machine, null, 2));

  // code-server's own config file, kept out of ~/.config/code-server (which it would otherwise create).
  const configFile = path.join(root, 'config.yaml');
  writeFileSync(configFile, 'auth: none\ncert: false\n');

  const env = childEnv(host.nodeDir, options.env);
  const extensionIds = extensionDirs.map((d) => copyExtension(d, extensionsDir, { includeNodeModules: options.includeNodeModules }));
  registerLanguagePacks(
    extensionDirs.map((d) => {
      const pkg = JSON.parse(readFileSync(path.join(d, 'package.json'), 'utf8'));
      return path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
    }),
    userDataDir,
  );
  if (vsix) {
    const r = spawnSync(
      host.nodeBin,
      [
        host.codeServerBin,
        '--config',
        configFile,
        '--user-data-dir',
        userDataDir,
        '--extensions-dir',
        extensionsDir,
        '--install-extension',
        path.resolve(vsix),
        '--force',
      ],
      { env, encoding: 'utf8', timeout: 120_000 },
    );
    if (r.status !== 0)
      throw new Error(`code-server --install-extension ${vsix} failed (exit ${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  }

  const logFile = path.join(logsDir, 'code-server.log');
  const wanted = options.port ?? 0;
  let child;
  let port;
  let exited;
  for (let attempt = 1; ; attempt++) {
    port = wanted || (await freePort());
    const args = [
      host.codeServerBin,
      '--config',
      configFile,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-getting-started-override',
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      ...(trust ? [] : ['--disable-workspace-trust']),
      ...(options.locale ? ['--locale', options.locale] : []),
      path.resolve(workspace),
    ];
    const out = createWriteStream(logFile, { flags: 'a' });
    out.write(`$ ${host.nodeBin} ${args.join(' ')}\n`);
    // Own process group, so that stop() ends the server with its extension hosts and their children.
    child = spawn(host.nodeBin, args, { env, cwd: path.resolve(workspace), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    child.on('error', () => {});
    // A forgotten stop() must not keep a test runner alive: the 'exit' hook below still ends the server.
    child.unref();
    child.stdout.unref?.();
    child.stderr.unref?.();
    let dead;
    exited.then((r) => (dead = r));
    const deadline = Date.now() + startTimeoutMs;
    let ok = false;
    while (!dead && Date.now() < deadline) {
      const status = await httpStatus(`http://127.0.0.1:${port}/healthz`, 2000);
      if (status === 200) {
        ok = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    if (ok) break;
    if (!dead) {
      killGroup(child.pid, 'SIGKILL');
      throw new Error(
        `code-server did not answer on http://127.0.0.1:${port}/ within ${startTimeoutMs} ms (log: ${logFile})\n${tail(logFile)}`,
      );
    }
    const log = tail(logFile);
    if (!wanted && attempt < 3 && /EADDRINUSE/.test(log)) continue; // lost the port to someone else: try another
    throw new Error(`code-server exited (${dead.code ?? dead.signal}) before answering (log: ${logFile})\n${log}`);
  }

  const onExit = () => killGroup(child.pid, 'SIGKILL');
  process.on('exit', onExit);
  let stopped;
  const url = `http://127.0.0.1:${port}/`;
  const result = {
    url,
    workbenchUrl: `${url}?folder=${encodeURIComponent(path.resolve(workspace))}`,
    port,
    pid: child.pid,
    root,
    userDataDir,
    extensionsDir,
    logsDir,
    logFile,
    extensionIds,
    startMs: Date.now() - t0,
    /**
     * Ends code-server and everything it started (SIGTERM, then SIGKILL after `graceMs`, default 5 s). With
     * `removeFiles`, also deletes the temporary folder `root` (logs included; folders passed in are kept).
     */
    stop: ({ graceMs = 5000, removeFiles = false } = {}) =>
      (stopped ??= (async () => {
        process.off('exit', onExit);
        killGroup(child.pid, 'SIGTERM');
        let timer;
        const grace = new Promise((r) => (timer = setTimeout(r, graceMs, 'timeout')));
        const first = await Promise.race([exited, grace]);
        clearTimeout(timer);
        if (first === 'timeout') killGroup(child.pid, 'SIGKILL');
        // The extension host may outlive the server for a moment: make sure the group is gone.
        killGroup(child.pid, 'SIGKILL');
        if (removeFiles) rmSync(root, { recursive: true, force: true });
      })()),
  };
  return result;
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {}
}

// ---------------------------------------------------------------------------------------------------------
// CLI

function parseArgs(argv) {
  const o = { extensionDirs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--workspace') o.workspace = val();
    else if (a === '--extension') o.extensionDirs.push(val());
    else if (a === '--vsix') o.vsix = val();
    else if (a === '--trust') o.trust = true;
    else if (a === '--port') o.port = Number(val());
    else if (a === '--user-data-dir') o.userDataDir = val();
    else if (a === '--settings') o.settings = JSON.parse(readFileSync(val(), 'utf8'));
    else if (a === '-h' || a === '--help') o.help = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(2);
  }
  if (o.help || !o.workspace) {
    process.stdout.write(
      'usage: node scripts/host/launch.mjs --workspace <dir> [--extension <dir>]... [--vsix <file>] [--trust] [--port <n>] [--user-data-dir <dir>] [--settings <file.json>]\n',
    );
    process.exit(o.help ? 0 : 2);
  }
  try {
    const host = await launchCodeServer({ ...o, workspace: realpathSync(o.workspace), quiet: false });
    process.stdout.write(
      `code-server is up in ${(host.startMs / 1000).toFixed(1)} s\n` +
        `  open:        ${host.workbenchUrl}\n` +
        `  extensions:  ${host.extensionIds.join(', ') || '(none)'} in ${host.extensionsDir}\n` +
        `  logs:        ${host.logsDir} (extension host logs appear once a browser connects)\n` +
        'Ctrl-C to stop.\n',
    );
    const shutdown = async () => {
      await host.stop();
      process.exit(0);
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
    setInterval(() => {}, 1 << 30); // stay up
  } catch (e) {
    process.stderr.write(`${e?.message ?? e}\n`);
    process.exit(1);
  }
}
