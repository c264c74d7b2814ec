/**
 * What the bridge passes on to the real server and back: VS Code's own `_meta` keys and its
 * progress token stay behind; the real server's JSON-RPC error goes back as that same error; the
 * host's own reasons (declined, limits) go back as an isError result the model can read.
 */
import assert from 'node:assert/strict';
import { ProtocolError } from '@modelcontextprotocol/server';
import { bridgeFailure, forwardedMeta } from '../../../src/core/bridge/bridgeServer';
import { HostError } from '../../../src/core/util/errors';

describe('bridge server', () => {
  it("forwards the caller's _meta without VS Code's keys and the progress token", () => {
    assert.deepEqual(forwardedMeta({ progressToken: 3, 'vscode.conversationId': 'c', 'vscode.requestId': 'r', trace: 'x' }), {
      trace: 'x',
    });
    assert.equal(forwardedMeta({ progressToken: 3, 'vscode.conversationId': 'c' }), undefined);
    assert.equal(forwardedMeta(undefined), undefined);
    assert.equal(forwardedMeta(['x']), undefined);
  });

  it("the real server's JSON-RPC error goes back as that error; cancellation as an error", () => {
    const e = (() => {
      try {
        bridgeFailure('tools/call plan_trip on demo', new HostError('server', 'Invalid params: bad date', -32602, { field: 'startDate' }));
      } catch (err) {
        return err;
      }
    })();
    assert.ok(e instanceof ProtocolError);
    assert.equal(e.code, -32602);
    assert.deepEqual(e.data, { field: 'startDate' });
    assert.throws(() => bridgeFailure('t', new HostError('cancelled', 'stopped')), ProtocolError);
  });

  it("the host's own reasons become an isError result naming them", () => {
    for (const [kind, message] of [
      ['declined', 'you declined the sampling request'],
      ['timeLimit', 'exceeded its time limit'],
      ['roundLimit', 'still asked after 10 rounds'],
      ['connection', 'could not start'],
    ] as const) {
      const r = bridgeFailure('tools/call plan_trip on demo', new HostError(kind, message));
      assert.equal(r.isError, true);
      assert.deepEqual(r.content, [
        { type: 'text', text: `MCP Roundtrip could not complete tools/call plan_trip on demo: ${kind}: ${message}` },
      ]);
    }
  });
});
