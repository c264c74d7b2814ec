/**
 * Issue 45, "nothing connects until needed": with servers configured and
 * `mcpRoundtrip.chat.exposeServers` at its default (`modernOnly`), activation, VS Code's first read of
 * the bridge's definitions and a change of the server list start no process. The era of each server is
 * learnt when VS Code's chat starts its bridged definition (`resolveMcpServerDefinition`), and the
 * decision is then the one the default rule makes: a server that speaks only 2026-07-28 is started
 * through the bridge, one that also answers the 2025 handshake (the demo) is not.
 *
 * Runs the extension's `activate()` under plain Node with the bench's `vscode` stub, asking the
 * registered provider as VS Code does (provide at registration, resolve when chat starts a server).
 */
import assert from 'node:assert/strict';
import childProcess from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST, ensureBuilt, ROOT } from '../../support/build';
import { useVscodeStub, VSCODE_STUB } from '../../support/vscodeStub';

type Definition = { label: string; uri: { toString(): string }; headers: Record<string, string>; version?: string };
type Provider = {
  provideMcpServerDefinitions(): Promise<Definition[]>;
  resolveMcpServerDefinition(def: Definition): Promise<Definition | undefined>;
  onDidChangeMcpServerDefinitions(listener: () => void): { dispose(): void };
};
type Stub = {
  __context(root: string, pkg: unknown): { subscriptions: { dispose(): void }[] };
  __mcpProviders: Map<string, Provider>;
  __userSettings: Map<string, unknown>;
};

describe('chat exposure: nothing connects until chat asks (issue 45)', function () {
  this.timeout(60_000);
  useVscodeStub();
  let stub: Stub;
  let context: { subscriptions: { dispose(): void }[] } | undefined;
  /** The commands started by this process since the test began (`child_process.spawn`). */
  const spawned: string[] = [];
  const spawn = childProcess.spawn;
  /** The modules loaded before this test: those it loads (the whole extension) are dropped after it. */
  let loaded: Set<string>;

  before(() => {
    loaded = new Set(Object.keys(require.cache));
    ensureBuilt();
    stub = require(VSCODE_STUB) as Stub;
    (childProcess as { spawn: unknown }).spawn = function (this: unknown, ...args: Parameters<typeof spawn>) {
      spawned.push([args[0], ...((args[1] as string[] | undefined) ?? [])].join(' '));
      return spawn.apply(this, args);
    };
  });
  after(() => {
    (childProcess as { spawn: unknown }).spawn = spawn;
    for (const d of context?.subscriptions ?? []) d.dispose();
    stub.__userSettings.clear();
    // A later test loads these modules again after setting up its own stand-ins (they copy `vscode`'s keys as they load).
    for (const k of Object.keys(require.cache)) if (!loaded.has(k) && k.startsWith(path.join(ROOT, 'src'))) delete require.cache[k];
  });

  it('activation, the first read of the definitions and a server-list change spawn nothing; starting a definition decides it by its era', async () => {
    const node = process.execPath;
    stub.__userSettings.set('mcpRoundtrip.servers', {
      modern: { type: 'stdio', command: node, args: [path.join(ROOT, 'test', 'fixtures', 'samplingProbeServer.mjs')] },
      demo: { type: 'stdio', command: node, args: [path.join(DIST, 'demo-server.js')] },
      old: { type: 'stdio', command: node, args: [path.join(DIST, 'demo-server.js')], era: 'legacy' },
    });
    const ext = require('../../../src/extension') as { activate(context: unknown): { registry: { reload(): Promise<void> } } };
    context = stub.__context(ROOT, JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')));
    const api = ext.activate(context);
    const provider = stub.__mcpProviders.get('mcpRoundtrip.bridge');
    assert.ok(provider, 'the bridge registered its MCP server definition provider');
    let changes = 0;
    provider.onDidChangeMcpServerDefinitions(() => changes++);

    // VS Code reads the definitions as soon as the provider is registered (after the first server list here).
    const first = await provider.provideMcpServerDefinitions();
    assert.deepEqual(
      first.map((d) => d.label).sort(),
      ['demo (via MCP Roundtrip)', 'modern (via MCP Roundtrip)'],
      'the two servers of unknown era are offered, to be decided when chat starts them; the legacy one is not',
    );
    // The server list reloaded (as on a configuration change): still nothing is probed.
    await api.registry.reload();
    await provider.provideMcpServerDefinitions();
    assert.equal(spawned.length, 0, `no process before chat asks: ${spawned.join(' | ')}`);
    const defOf = (server: string) => first.find((d) => d.label === `${server} (via MCP Roundtrip)`)!;

    // Chat starts the modern server: its era is learnt now, and it is started through the bridge.
    const modern = await provider.resolveMcpServerDefinition(defOf('modern'));
    assert.ok(modern, 'the server that speaks only 2026-07-28 is started');
    assert.match(modern.headers.Authorization, /^Bearer \S+$/);
    assert.match(modern.uri.toString(), /^http:\/\/127\.0\.0\.1:\d+\/mcp\/modern$/);
    assert.ok(
      spawned.length >= 2 && spawned.every((c) => c.includes('samplingProbeServer.mjs')),
      `the modern server probed twice (era, then the 2025 handshake), nothing else: ${spawned.join(' | ')}`,
    );

    // Chat starts the demo: it answers the 2025 handshake too, so VS Code can serve it itself.
    const before = changes;
    assert.equal(await provider.resolveMcpServerDefinition(defOf('demo')), undefined, 'the demo is not started through the bridge');
    assert.ok(changes > before, 'VS Code is told the definitions changed');
    assert.deepEqual(
      (await provider.provideMcpServerDefinitions()).map((d) => d.label),
      ['modern (via MCP Roundtrip)'],
    );

    // Decided once per window: asking again probes nothing.
    const count = spawned.length;
    assert.ok(await provider.resolveMcpServerDefinition(defOf('modern')));
    assert.equal(spawned.length, count);

    // The setting's other values need no era: every server is offered and started without a probe.
    stub.__userSettings.set('mcpRoundtrip.chat.exposeServers', 'all');
    const all = await provider.provideMcpServerDefinitions();
    assert.deepEqual(all.map((d) => d.label).sort(), ['demo (via MCP Roundtrip)', 'modern (via MCP Roundtrip)', 'old (via MCP Roundtrip)']);
    assert.ok(await provider.resolveMcpServerDefinition(all.find((d) => d.label.startsWith('old '))!));
    assert.equal(spawned.length, count);
  });
});
