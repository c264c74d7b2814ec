/** The round-trip log: the `MCP Roundtrip` output channel's file has one line per leg, with the legs' ids. */
import assert from 'node:assert/strict';
import { ENV, roundtrip, succeeded, waitForLogLines } from './support';

describe('round-trip log', function () {
  this.timeout(180_000);

  before(function () {
    if (!ENV.logsDir) this.skip(); // the runner did not say where the logs are
  });

  it('writes every leg of busy_report to the log file: request, state-only round, retry with a new id and the exact state, complete', async () => {
    const api = await roundtrip();
    const outcome = await api.call('demo', 'tools/call', { name: 'busy_report', arguments: { topic: 'log' } });
    succeeded(outcome);
    const ev = (kind: string) => outcome.events.find((e) => e.kind === kind) as { id?: string | number; flowId: number } | undefined;
    const request = ev('request')!;
    const retry = ev('retry')!;
    assert.ok(request && retry, 'the call had a request and a retry');
    assert.notEqual(retry.id, request.id, 'the retry is a new request');
    const lines = await waitForLogLines([
      new RegExp(`→ \\[demo\\] tools/call busy_report id=${request.id} \\(flow ${request.flowId}, history h[0-9a-z]+\\)$`),
      new RegExp(`← \\[demo\\] input_required round 1 for id=${request.id}: no inputs \\(state only\\); requestState \\d+ chars`),
      new RegExp(
        `→ \\[demo\\] retry 1 of tools/call busy_report id=${retry.id} \\(new id, was ${request.id}\\) with no inputResponses; requestState echo exact`,
      ),
      new RegExp(`← \\[demo\\] complete id=${retry.id} after 1 round\\(s\\)`),
    ]);
    assert.equal(lines.length, 4);
  });
});
