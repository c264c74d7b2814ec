/** The check of every message a server sends (src/core/transport/incoming.ts). */
import assert from 'node:assert/strict';
import { ProtocolError } from '@modelcontextprotocol/client';
import {
  checkIncoming,
  claimedAnswerId,
  parseIncoming,
  readMessageLine,
  scanText,
  unreadableAnswer,
  unreadableReason,
} from '../../../src/core/transport/incoming';
import { MAX_JSON_DEPTH } from '../../../src/core/limits';

describe('incoming messages', () => {
  it('depth is read on the text, strings skipped whole (brackets and escaped quotes inside them do not count)', () => {
    assert.equal(scanText('[[[]]]').depth, 3);
    assert.equal(scanText(JSON.stringify({ a: '[[[[[[[[', b: 'say \\"[[[[[[[[\\" \\\\' })).depth, 1);
    assert.ok(scanText('['.repeat(5_000_000)).depth > MAX_JSON_DEPTH, 'unterminated and deep: refused before parsing');
    const p = parseIncoming(`{"jsonrpc":"2.0","id":7,"result":${'['.repeat(100)}${']'.repeat(100)}}`);
    assert.deepEqual(p, { ok: false, reason: 'it is nested deeper than 64 levels (MAX_JSON_DEPTH)', answers: 7 });
  });

  it('names each fault of shape, and the request a response answers', () => {
    assert.deepEqual(checkIncoming('x'), { ok: false, reason: 'it is a string, not a JSON-RPC message object' });
    assert.deepEqual(checkIncoming({ jsonrpc: '2.0', id: 1, result: 'x' }), {
      ok: false,
      reason: 'its result is a string, not an object',
      answers: 1,
    });
    assert.deepEqual(checkIncoming({ jsonrpc: '2.0', id: 'a', error: { code: 1.5, message: 'm' } }), {
      ok: false,
      reason: 'its error code is not an integer',
      answers: 'a',
    });
    assert.deepEqual(checkIncoming({ jsonrpc: '1.0', id: 2, result: {} }), {
      ok: false,
      reason: 'its "jsonrpc" member is "1.0", not "2.0"',
      answers: 2,
    });
    assert.equal(checkIncoming({ jsonrpc: '2.0', id: 3, method: 7 }).ok, false);
    assert.equal('answers' in checkIncoming({ jsonrpc: '2.0', id: 3, method: 7 }), false, 'a request answers nothing');
    assert.deepEqual(checkIncoming({ jsonrpc: '2.0', id: 3, method: 'roots/list' }), { ok: true });
  });

  it('a text that is not JSON names the id it claims to answer, unless it is a request', () => {
    assert.equal(claimedAnswerId('{"jsonrpc":"2.0","id":12,"result":{"con'), 12);
    assert.equal(claimedAnswerId('{"id":"abc","error":'), 'abc');
    assert.equal(claimedAnswerId('{"jsonrpc":"2.0","id":5,"method":"sampling/crea'), undefined);
    assert.equal(claimedAnswerId('Server listening on port 3000'), undefined);
    // Only the top level counts: a "method" or an "id" inside the result is not the message's.
    assert.equal(claimedAnswerId('{"jsonrpc":"2.0","id":8,"result":{"inputRequests":{"k":{"method":"roots/list","id":99}},"x":'), 8);
    assert.equal(claimedAnswerId('{"result":{"id":99,"deep":[[[]]]},"jsonrpc":"2.0","id":"late"}'), 'late');
    assert.deepEqual(readMessageLine('{"jsonrpc":"2.0","id":4,"result":'), { ok: false, reason: 'it is not valid JSON', answers: 4 });
  });

  it('an unreadable answer is recognised by its mark only: a server sending the same shape is a server error', () => {
    const answer = unreadableAnswer(9, 'its result is a string, not an object') as unknown as {
      error: { code: number; message: string; data: unknown };
    };
    assert.equal(
      unreadableReason(new ProtocolError(answer.error.code, answer.error.message, answer.error.data)),
      'its result is a string, not an object',
    );
    assert.equal(unreadableReason(new ProtocolError(-32700, 'forged', { 'mcp-roundtrip/unreadable': 'guess' })), undefined);
  });
});
