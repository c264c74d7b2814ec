/** The log's bound on a server's stderr (and warnings): lines past the rate are counted, then reported in one line. */
import assert from 'node:assert/strict';
import { STDERR_LOG_LINES_PER_WINDOW, STDERR_LOG_WINDOW_MS } from '../../../src/core/limits';
import { LineThrottle } from '../../../src/core/log/lineThrottle';

describe('line throttle', () => {
  it(`lets ${STDERR_LOG_LINES_PER_WINDOW} lines a window through, counts the rest, and reports them when the window ends`, () => {
    let now = 1_000_000;
    const dropped: number[] = [];
    const t = new LineThrottle(
      (n) => dropped.push(n),
      () => now,
    );
    const admitted = Array.from({ length: 250 }, () => t.admit()).filter(Boolean).length;
    assert.equal(admitted, STDERR_LOG_LINES_PER_WINDOW);
    assert.deepEqual(dropped, []);
    now += STDERR_LOG_WINDOW_MS;
    assert.equal(t.admit(), true, 'a new window lets lines through again');
    assert.deepEqual(dropped, [150], 'the count of the past window, once');
    t.flush();
    assert.deepEqual(dropped, [150], 'nothing more was dropped');
  });

  it('reports what was dropped when flushed (the connection ended), without waiting for the window', () => {
    const dropped: number[] = [];
    const t = new LineThrottle(
      (n) => dropped.push(n),
      () => 5,
    );
    for (let i = 0; i < STDERR_LOG_LINES_PER_WINDOW + 7; i++) t.admit();
    t.flush();
    assert.deepEqual(dropped, [7]);
  });
});
