/**
 * The bench hook of src/extension.ts (reportActivation): with `MCP_ROUNDTRIP_BENCH_FILE` set,
 * `activate()` appends its own duration as a JSON line to that file and logs `activated in X ms`;
 * without it, nothing is written. Runs `activate()` under plain Node with the bench's `vscode` stub.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useVscodeStub, VSCODE_STUB } from '../../support/vscodeStub';

const ROOT = path.resolve(__dirname, '..', '..', '..');

type QuickPick = { items: string[]; options?: { placeHolder?: string }; answer(item: string | undefined): void };
type Stub = {
  __context(root: string, pkg: unknown): { subscriptions: { dispose(): void }[] };
  __channels: { name: string; lines: string[] }[];
  __panels: { viewType: string; webview: { html: string } }[];
  __quickPicks: QuickPick[];
};
type Extension = { activate(context: unknown): unknown };

describe('activation time hook (MCP_ROUNDTRIP_BENCH_FILE)', function () {
  this.timeout(30_000);
  useVscodeStub();
  let dir = '';
  let stub: Stub;
  let ext: Extension;
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const saved = process.env.MCP_ROUNDTRIP_BENCH_FILE;

  before(() => {
    stub = require(VSCODE_STUB) as Stub;
    ext = require('../../../src/extension') as Extension;
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-activation-test-'));
  });
  after(() => {
    if (saved === undefined) delete process.env.MCP_ROUNDTRIP_BENCH_FILE;
    else process.env.MCP_ROUNDTRIP_BENCH_FILE = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  const activate = () => {
    const context = stub.__context(ROOT, pkg);
    ext.activate(context);
    for (const d of context.subscriptions) d.dispose();
  };

  it('appends {"activationMs": X} to the file and logs "activated in X ms"', () => {
    const file = path.join(dir, 'activation.jsonl');
    process.env.MCP_ROUNDTRIP_BENCH_FILE = file;
    activate();
    activate();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { activationMs: number; pid: number });
    assert.equal(lines.length, 2);
    for (const l of lines) {
      assert.ok(Number.isFinite(l.activationMs) && l.activationMs >= 0, String(l.activationMs));
      assert.equal(l.pid, process.pid);
    }
    const channel = stub.__channels.filter((c) => c.name === 'MCP Roundtrip').pop();
    assert.ok(
      channel?.lines.some((line) => /^\[info\] activated in \d+\.\d\d ms$/.test(line)),
      channel?.lines.join('\n'),
    );
  });

  it('opens a bare webview (no script, nothing allowed) each time a "<file>.bare" request appears, and removes the request', async () => {
    const file = path.join(dir, 'bare.jsonl');
    process.env.MCP_ROUNDTRIP_BENCH_FILE = file;
    const context = stub.__context(ROOT, pkg);
    ext.activate(context);
    try {
      const before = stub.__panels.length;
      writeFileSync(`${file}.bare`, '');
      for (let i = 0; i < 500 && stub.__panels.length === before; i++) await new Promise((r) => setTimeout(r, 10));
      const panel = stub.__panels[stub.__panels.length - 1];
      assert.equal(stub.__panels.length, before + 1);
      assert.equal(panel.viewType, 'mcpRoundtrip.benchBareWebview');
      assert.match(panel.webview.html, /content="default-src 'none'"/);
      assert.doesNotMatch(panel.webview.html, /<script/);
      assert.equal(existsSync(`${file}.bare`), false, 'the request is consumed');
      const channel = stub.__channels.filter((c) => c.name === 'MCP Roundtrip').pop();
      assert.ok(channel?.lines.includes('[info] bench: bare webview opened'), channel?.lines.join('\n'));
    } finally {
      for (const d of context.subscriptions) d.dispose();
      rmSync(file, { force: true });
    }
  });

  it('with a "<file>.bare-app" request, opens its HTML as it is (the app view\'s reference) and removes the request', async () => {
    const file = path.join(dir, 'bare-app.jsonl');
    process.env.MCP_ROUNDTRIP_BENCH_FILE = file;
    const context = stub.__context(ROOT, pkg);
    ext.activate(context);
    const html = '<!doctype html><button id="get-time-btn">Get Server Time</button><script>document.title = "app";</script>';
    try {
      const before = stub.__panels.length;
      writeFileSync(`${file}.tmp`, html);
      renameSync(`${file}.tmp`, `${file}.bare-app`);
      for (let i = 0; i < 500 && stub.__panels.length === before; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(stub.__panels.length, before + 1);
      assert.equal(stub.__panels[stub.__panels.length - 1].webview.html, html);
      assert.equal(existsSync(`${file}.bare-app`), false, 'the request is consumed');
      const channel = stub.__channels.filter((c) => c.name === 'MCP Roundtrip').pop();
      assert.ok(channel?.lines.includes('[info] bench: bare app webview opened'), channel?.lines.join('\n'));
    } finally {
      for (const d of context.subscriptions) d.dispose();
      rmSync(file, { force: true });
    }
  });

  it('with a "<file>.bare-picked" request, shows a quick pick first and opens the bare webview only when its item is picked', async () => {
    const file = path.join(dir, 'picked.jsonl');
    process.env.MCP_ROUNDTRIP_BENCH_FILE = file;
    const context = stub.__context(ROOT, pkg);
    ext.activate(context);
    const until = async (what: string, done: () => boolean) => {
      for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(done(), what);
    };
    try {
      const panels = stub.__panels.length;
      const picks = stub.__quickPicks.length;
      const opened = () =>
        stub.__channels
          .filter((c) => c.name === 'MCP Roundtrip')
          .pop()
          ?.lines.filter((l) => l === '[info] bench: bare webview opened').length ?? 0;
      const logged = opened();

      // Dismissed: nothing opens.
      writeFileSync(`${file}.bare-picked`, '');
      await until('a quick pick is shown', () => stub.__quickPicks.length === picks + 1);
      assert.deepEqual(stub.__quickPicks[picks].items, ['Open a bare webview']);
      assert.equal(existsSync(`${file}.bare-picked`), false, 'the request is consumed');
      assert.equal(stub.__panels.length, panels, 'no panel before the pick');
      stub.__quickPicks[picks].answer(undefined);
      await new Promise((r) => setImmediate(r));
      assert.equal(stub.__panels.length, panels, 'a dismissed pick opens no panel');

      // Picked: the panel opens, logged as it is created.
      writeFileSync(`${file}.bare-picked`, '');
      await until('a second quick pick is shown', () => stub.__quickPicks.length === picks + 2);
      assert.equal(opened(), logged, 'not logged before the pick');
      stub.__quickPicks[picks + 1].answer('Open a bare webview');
      await until('the bare webview opens', () => stub.__panels.length === panels + 1);
      assert.equal(stub.__panels[panels].viewType, 'mcpRoundtrip.benchBareWebview');
      assert.equal(opened(), logged + 1);
    } finally {
      for (const d of context.subscriptions) d.dispose();
      rmSync(file, { force: true });
    }
  });

  it('writes and logs nothing without the variable', () => {
    delete process.env.MCP_ROUNDTRIP_BENCH_FILE;
    const before = stub.__channels.length;
    activate();
    assert.deepEqual(readdirSync(dir), ['activation.jsonl']);
    assert.equal(readFileSync(path.join(dir, 'activation.jsonl'), 'utf8').trim().split('\n').length, 2, 'nothing appended');
    const channel = stub.__channels.slice(before).find((c) => c.name === 'MCP Roundtrip');
    assert.ok(channel, 'activate() created its channel');
    assert.ok(!channel.lines.some((line) => /activated in/.test(line)));
  });
});
