/** The round-trip log names a call's history entry on its first and last line (and only there). */
import assert from 'node:assert/strict';
import type { RoundTripEvent } from '../../../src/core/log/events';
import { formatEvent } from '../../../src/core/log/traceLog';

const base = { flowId: 3, server: 'demo', method: 'tools/call' as const, target: 'book_table', historyId: 'hmb2x1k9a0' };

describe('round-trip log: the history id', () => {
  it('is on the request line and on the complete or error line, not on the lines between', () => {
    const lines = (
      [
        { ...base, round: 0, kind: 'request', id: 0 },
        {
          ...base,
          round: 1,
          kind: 'inputRequired',
          id: 0,
          inputs: [{ key: 'booking', method: 'elicitation/create' }],
          state: { present: false },
          legMs: 5,
        },
        {
          ...base,
          round: 1,
          kind: 'answer',
          key: 'booking',
          inputMethod: 'elicitation/create',
          action: 'accept',
          summary: 'accept fields [date]',
          waitedMs: 10,
        },
        {
          ...base,
          round: 1,
          kind: 'retry',
          id: 1,
          previousId: 0,
          keys: ['booking'],
          state: { present: false },
          echoExact: true,
          delayMs: 0,
        },
        { ...base, round: 1, kind: 'complete', id: 1, legMs: 3, totalMs: 20, waitingMs: 10, isError: false },
        { ...base, round: 1, kind: 'error', id: 1, errorKind: 'cancelled', message: 'x', totalMs: 20, waitingMs: 10 },
      ] as RoundTripEvent[]
    ).map((e) => formatEvent(e)!.text);
    assert.equal(lines[0], '→ [demo] tools/call book_table id=0 (flow 3, history hmb2x1k9a0)');
    assert.match(lines[4], /waiting for the user \(history hmb2x1k9a0\)$/);
    assert.match(lines[5], /waiting for the user \(history hmb2x1k9a0\)$/);
    for (const l of lines.slice(1, 4)) assert.ok(!l.includes('history'), l);
    const { historyId: _, ...without } = base;
    assert.equal(formatEvent({ ...without, round: 0, kind: 'request', id: 0 })!.text, '→ [demo] tools/call book_table id=0 (flow 3)');
  });
});
