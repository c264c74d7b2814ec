// Smoke test of the real host: the built extension (this repository, `npm run build` first) loads in code-server
// (VS Code 1.139), its commands reach the palette, and its activation does not fail.
// Needs scripts/host/install.mjs to have run (it runs on demand, ~2.5 min the first time).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  openWorkbench,
  repoRoot,
  screenshot,
  startCodeServer,
  waitFor,
  waitForCommand,
  type CodeServerHost,
  type Workbench,
} from './harness';
import { serverRows } from './support';
import { resolvedManifest } from '../support/manifest';

interface Manifest {
  publisher: string;
  name: string;
  contributes?: { commands?: { command: string; title: string; category?: string }[] };
}

/** The extension host's log files (one `exthostN/remoteexthost.log` per extension host start). */
function extHostLogs(logsDir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'remoteexthost.log') out.push(readFileSync(p, 'utf8'));
    }
  };
  walk(logsDir);
  return out.join('\n');
}

describe('e2e smoke: the extension in code-server', function () {
  this.timeout(300_000);
  // As VS Code reads it: titles are `%key%` strings of package.nls.json.
  const manifest = resolvedManifest() as Manifest;
  const id = `${manifest.publisher}.${manifest.name}`;
  let workspace: string;
  let host: CodeServerHost | undefined;
  let wb: Workbench | undefined;

  before(async () => {
    assert.ok(existsSync(path.join(repoRoot, 'dist', 'extension.js')), 'dist/extension.js is missing: run `npm run build` first');
    workspace = mkdtempSync(path.join(os.tmpdir(), 'mcp-roundtrip-ws-'));
    host = await startCodeServer({ workspace, extensionDirs: [repoRoot] });
    wb = await openWorkbench(host.url, workspace);
  });

  let failed = false;
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    failed = true;
    if (wb) await screenshot(wb.page, `smoke-failure-${this.currentTest.title}`).catch(() => {});
  });

  after(async () => {
    await wb?.close();
    await host?.stop({ removeFiles: !failed }); // keep the logs of a failed run (host.logsDir)
    if (failed && host) console.log(`code-server logs kept in ${host.logsDir}`);
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it("lists the extension's first command in the palette", async () => {
    const cmd = manifest.contributes?.commands?.[0];
    assert.ok(cmd, 'package.json contributes no command');
    const title = cmd.category ? `${cmd.category}: ${cmd.title}` : cmd.title;
    await waitForCommand(wb!.page, title, { timeoutMs: 60_000 });
    await screenshot(wb!.page, 'smoke-workbench');
  });

  it('does not fail to activate', async () => {
    // The end state of a good activation: its view lists the built-in demo server (activate() returned and the
    // configuration was read). Only then are the logs read, and the log is polled until it records the
    // activation, since the extension host writes its log file some time after the fact.
    await waitFor(
      'the demo server in the MCP Roundtrip view',
      async () => ((await serverRows(wb!.page)).some((t) => t.startsWith('demo')) ? true : undefined),
      {
        timeoutMs: 60_000,
      },
    );
    const activated = new RegExp(`_doActivateExtension ${id.replace(/[.]/g, '\\.')}\\b`);
    const log = await waitFor(
      'the extension host log to record the activation',
      () => {
        const text = extHostLogs(host!.logsDir);
        return activated.test(text) ? text : undefined;
      },
      { timeoutMs: 60_000 },
    );
    assert.match(log, /Extension host with pid \d+ started/);
    const failures = log.split('\n').filter((l) => l.includes(id) && /fail|error/i.test(l));
    assert.deepEqual(failures, [], `activation problems in the extension host log:\n${failures.join('\n')}`);
    const errors = wb!.consoleLines.filter((l) => l.startsWith('error:') && l.includes(id));
    assert.deepEqual(errors, [], `errors in the workbench console:\n${errors.join('\n')}`);
  });
});
