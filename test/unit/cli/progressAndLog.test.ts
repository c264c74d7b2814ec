/** The CLI's progress lines, its long-call flags, and a server's log messages as round-trip log lines. */
import assert from 'node:assert/strict';
import { parseCli, UsageError } from '../../../src/cli/args';
import { progressLine } from '../../../src/cli/main';
import { ServerDiagnostics } from '../../../src/core/connection/diagnostics';
import type { HostEvent } from '../../../src/core/log/events';
import { formatEvent } from '../../../src/core/log/traceLog';

describe('CLI: progress lines, --leg-idle-ms, --quiet, --log-level', () => {
  it('writes progress with its total, as a percentage, or alone; the message on one line', () => {
    assert.equal(progressLine({ progress: 3, total: 7, message: 'copying\nfiles' }), 'progress 3/7: copying files');
    assert.equal(progressLine({ progress: 42, total: 100 }), 'progress 42%');
    assert.equal(progressLine({ progress: 3 }), 'progress 3');
    assert.equal(progressLine({ progress: 1 / 3, total: 1 }), 'progress 0.33/1');
  });

  it('parses the flags, with their defaults, and refuses a level or a limit that is none', () => {
    const dflt = parseCli(['--stdio', 'srv', 'call', 't']);
    assert.deepEqual([dflt.legIdleMs, dflt.quiet, dflt.logLevel], [undefined, false, 'info']);
    const set = parseCli(['--stdio', 'srv', '--leg-idle-ms', '1500', '--quiet', '--log-level', 'debug', 'call', 't']);
    assert.deepEqual([set.legIdleMs, set.quiet, set.logLevel], [1500, true, 'debug']);
    assert.throws(
      () => parseCli(['--stdio', 'srv', '--log-level', 'loud', 'call', 't']),
      (e: Error) => {
        assert.ok(e instanceof UsageError);
        assert.match(e.message, /--log-level must be one of debug, info, notice, warning, error, critical, alert, emergency, got "loud"/);
        return true;
      },
    );
    assert.throws(() => parseCli(['--stdio', 'srv', '--leg-idle-ms', '0', 'call', 't']), /--leg-idle-ms needs a whole number from 1/);
  });

  it("a server's notifications/message is one log line at its level; a flood is counted, not logged", () => {
    const events: HostEvent[] = [];
    const d = new ServerDiagnostics('everything', (e) => events.push(e));
    d.serverLog({ level: 'warning', logger: 'db', data: { rows: 3 } });
    d.serverLog({ level: 'debug', data: 'line one\nline two' });
    assert.deepEqual(
      events.map((e) => formatEvent(e)),
      [
        { level: 'warn', text: '[everything] log warning db: {"rows":3}' },
        { level: 'debug', text: '[everything] log debug: line one line two' },
      ],
    );
    for (let i = 0; i < 500; i++) d.serverLog({ level: 'info', data: `m${i}` });
    d.flush();
    const logged = events.filter((e) => e.kind === 'serverLog').length;
    assert.ok(logged < 200, `${logged} lines logged`);
    assert.match(formatEvent(events[events.length - 1])!.text, /^\[everything\] \d+ more log messages not logged/);
  });
});
