/**
 * The host over a real stdio child process: the bytes it writes, one spawn per connection, stderr
 * capture, era negotiation, and a server that dies mid-round.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { HostError } from '../../../src/core/util/errors';
import type { HostEvent } from '../../../src/core/log/events';
import { stdioScripted } from '../../support/stdio';
import { deferred, scriptedProvider } from '../../support/providers';

const NAME = { action: 'accept', content: { name: 'Ada' } };
const conns: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(conns.splice(0).map((c) => c.close()));
});

describe('stdio connection', () => {
  it('echoes requestState byte for byte on the wire (U+2028, é, emoji, 100 000 chars)', async () => {
    const value = ('é\u2028👩🏽‍🚀 ' + ' {"a":1.0} ').repeat(5000).slice(0, 100_000);
    const file = join(mkdtempSync(join(tmpdir(), 'mcp-rt-state-')), 'state.txt');
    writeFileSync(file, value, 'utf8');
    const s = stdioScripted('echo', { provider: scriptedProvider({ k: NAME }) }, { env: { SCRIPT_STATE_FILE: file } });
    conns.push(s.conn);
    const r = await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
    const got = JSON.parse((r.result.content as { text: string }[])[0].text);
    assert.equal(got.got, value);
    const legs = s
      .lines()
      .filter((l) => !l.startsWith('#'))
      .map((l) => JSON.parse(l))
      .filter((m) => m.method === 'tools/call');
    assert.equal(legs[1].params.requestState, value);
    assert.equal(legs[1].params.requestState.length, value.length);
  });

  it('spawns the server once per connection (no probe sibling) and speaks 2026-07-28 in auto mode', async () => {
    const s = stdioScripted('plain', { provider: scriptedProvider({}) });
    conns.push(s.conn);
    await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
    await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
    assert.equal(s.conn.era, 'modern');
    assert.equal(s.conn.protocolVersion, '2026-07-28');
    assert.equal(s.lines().filter((l) => l.startsWith('#start')).length, 1);
    const methods = s
      .lines()
      .filter((l) => !l.startsWith('#'))
      .map((l) => JSON.parse(l).method);
    assert.equal(methods[0], 'server/discover');
    assert.ok(!methods.includes('initialize'));
  });

  it('falls back to the 2025 initialize handshake on a legacy server, on the same process', async () => {
    const s = stdioScripted('plain', { provider: scriptedProvider({}) }, { legacy: true });
    conns.push(s.conn);
    await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
    assert.equal(s.conn.era, 'legacy');
    const lines = s.lines();
    assert.equal(lines.filter((l) => l.startsWith('#start')).length, 1);
    const methods = lines.filter((l) => !l.startsWith('#')).map((l) => JSON.parse(l).method);
    assert.deepEqual(methods.slice(0, 3), ['server/discover', 'initialize', 'notifications/initialized']);
    const call = lines
      .filter((l) => !l.startsWith('#'))
      .map((l) => JSON.parse(l))
      .find((m) => m.method === 'tools/call');
    assert.equal(call.params._meta?.['io.modelcontextprotocol/protocolVersion'], undefined, 'no 2026 envelope on a 2025 connection');
  });

  it('era "legacy" never probes; era "modern" refuses a legacy server with a clear error', async () => {
    const legacy = stdioScripted('plain', { provider: scriptedProvider({}) }, { era: 'legacy' });
    conns.push(legacy.conn);
    await callWithRoundTrips(legacy.conn, 'tools/call', { name: 't', arguments: {} });
    assert.ok(!legacy.lines().some((l) => l.includes('server/discover')));
    const modern = stdioScripted('plain', { provider: scriptedProvider({}), connectTimeoutMs: 5000 }, { era: 'modern', legacy: true });
    conns.push(modern.conn);
    await assert.rejects(
      callWithRoundTrips(modern.conn, 'tools/call', { name: 't', arguments: {} }),
      (e: unknown) => e instanceof HostError && e.kind === 'connection' && /could not connect to scripted-plain/.test(e.message),
    );
  });

  it('captures stderr line by line under the server name', async () => {
    const events: HostEvent[] = [];
    const s = stdioScripted('plain', { provider: scriptedProvider({}), onEvent: (e) => events.push(e) });
    conns.push(s.conn);
    await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
    // stderr is asynchronous to stdout: wait for the line rather than for time.
    for (let i = 0; i < 200 && !s.conn.stderrTail.length; i++) await new Promise((r) => setImmediate(r));
    assert.ok(events.some((e) => e.kind === 'stderr' && e.server === 'scripted-plain' && e.line === 'scripted server ready (plain)'));
  });

  it('a server that exits mid-round ends the call with a clear error (no hang); the next call reconnects', async () => {
    const asked = deferred();
    const release = deferred<unknown>();
    const s = stdioScripted('exitMidRound', { provider: scriptedProvider({ k: () => (asked.resolve(), release.promise) }) });
    conns.push(s.conn);
    const call = callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
    await asked.promise;
    await assert.rejects(
      call,
      (e: unknown) => e instanceof HostError && e.kind === 'connection' && /closed the connection/.test(e.message),
    );
    release.resolve(NAME);
    assert.equal(s.conn.state, 'closed');
    // Next call: a new process, and it completes.
    const again = await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
    assert.deepEqual(again.result.content, [{ type: 'text', text: 'second life' }]);
    assert.equal(s.lines().filter((l) => l.startsWith('#start')).length, 2);
    assert.equal(s.conn.state, 'connected');
  });
});
