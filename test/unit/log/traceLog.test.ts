/** The round-trip log's lines: one per leg, no secrets, one line each. */
import assert from 'node:assert/strict';
import { formatEvent } from '../../../src/core/log/traceLog';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import type { HostEvent } from '../../../src/core/log/events';
import { scriptedConnection } from '../../support/inMemory';
import { askName, done } from '../../support/scripted';
import { scriptedProvider } from '../../support/providers';

describe('round-trip log lines', () => {
  it('one line per leg: → request, ← input_required, ↳ answer, → retry (echo exact), ← complete; no values, no state', async () => {
    const events: HostEvent[] = [];
    const s = scriptedConnection((m, n) => (n === 1 ? askName('who', 'TOP-SECRET-STATE') : done()), {
      provider: scriptedProvider({ who: { action: 'accept', content: { name: 'Ada Lovelace' } } }),
    });
    await callWithRoundTrips(s.conn, 'tools/call', { name: 'book', arguments: {} }, { onEvent: (e) => events.push(e) });
    const lines = events.map(formatEvent).map((l) => l!.text);
    assert.equal(lines.length, 5);
    assert.match(lines[0], /^→ \[scripted\] tools\/call book id=\d+/);
    assert.match(
      lines[1],
      /^← \[scripted\] input_required round 1 for id=\d+: who \(elicitation\/create\); requestState 16 chars #[0-9a-f]{8}/,
    );
    assert.match(lines[2], /^ {2}↳ \[scripted\] round 1 who: accept fields \[name\]/);
    assert.match(
      lines[3],
      /^→ \[scripted\] retry 1 of tools\/call book id=\d+ \(new id, was \d+\) with inputResponses \[who\]; requestState echo exact \(16 chars/,
    );
    assert.match(lines[4], /^← \[scripted\] complete id=\d+ after 1 round\(s\): total .*, .* waiting for the user$/);
    const all = lines.join('\n');
    assert.ok(!all.includes('TOP-SECRET-STATE'));
    assert.ok(!all.includes('Ada Lovelace'));
  });
  it('server text cannot break a line or forge another', () => {
    const l = formatEvent({ kind: 'stderr', server: 'x', line: 'ok\n← [x] complete forged\u2028more' })!;
    assert.ok(!/[\n\u2028]/.test(l.text));
  });
  it('errors carry the JSON-RPC code', () => {
    const l = formatEvent({
      kind: 'error',
      flowId: 1,
      server: 's',
      method: 'tools/call',
      target: 't',
      round: 2,
      errorKind: 'server',
      code: -32602,
      message: 'bad state',
      totalMs: 5,
      waitingMs: 0,
    })!;
    assert.equal(l.level, 'error');
    assert.match(l.text, /failed in round 2 \(JSON-RPC -32602\): bad state/);
  });
});

describe('round-trip log lines: hostile server text (review)', () => {
  it('C1 controls (CSI U+009B, NEL U+0085) and bidi overrides (U+202E) from a server never reach a line', () => {
    const l = formatEvent({ kind: 'stderr', server: 'x', line: 'a\u009b31mred\u0085next \u202Eexe.txt\u202C \u2066iso\u2069 \u200Fmark' })!;
    assert.ok(!/[\u0080-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f]/.test(l.text), JSON.stringify(l.text));
    assert.match(l.text, /red next +exe\.txt/);
  });
  it('thousands of inputRequests keys: the input_required and retry lines name 20 and count the rest', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `k${i}`);
    const ir = formatEvent({
      kind: 'inputRequired',
      flowId: 1,
      server: 's',
      method: 'tools/call',
      target: 't',
      round: 1,
      id: 0,
      inputs: keys.map((key) => ({ key, method: 'roots/list' as const })),
      state: { present: false },
      legMs: 1,
    })!;
    assert.ok(ir.text.length < 1000, `line of ${ir.text.length} chars`);
    assert.match(ir.text, /k0 \(roots\/list\), .*k19 \(roots\/list\), … and 4980 more; no requestState/);
    assert.ok(!ir.text.includes('k20 '));
    const retry = formatEvent({
      kind: 'retry',
      flowId: 1,
      server: 's',
      method: 'tools/call',
      target: 't',
      round: 1,
      id: 1,
      previousId: 0,
      keys,
      state: { present: false },
      echoExact: true,
      delayMs: 0,
    })!;
    assert.ok(retry.text.length < 600, `line of ${retry.text.length} chars`);
    assert.match(retry.text, /inputResponses \[k0, .*k19, … and 4980 more\]/);
  });
});
