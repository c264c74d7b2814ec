/** The host's reading of an SSE response stream (src/core/transport/sseGuard.ts), on bytes given in chunks. */
import assert from 'node:assert/strict';
import { sseGuard } from '../../../src/core/transport/sseGuard';

/** What the SDK would read after the guard, for `chunks` of a stream answering request 7. */
async function through(chunks: string[], reported: string[] = []): Promise<string> {
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
      c.close();
    },
  });
  let text = '';
  const reader = source.pipeThrough(sseGuard({ answers: () => [7], onUnreadable: (r) => reported.push(r) })).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += new TextDecoder().decode(value);
  }
}

const ANSWER = JSON.stringify({ jsonrpc: '2.0', id: 7, result: { resultType: 'complete', content: [] } });

describe('SSE guard', () => {
  it('passes a stream that answers, event by event, even when an event is split across chunks', async () => {
    const progress = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 1 } });
    const out = await through([`data: ${progress}\n\nda`, `ta: ${ANSWER.slice(0, 20)}`, `${ANSWER.slice(20)}\n\n`]);
    assert.equal(out, `data: ${progress}\n\ndata: ${ANSWER}\n\n`);
  });

  it('keeps a priming event (an id, no data) and the retry field, so the SDK can resume; a resumable stream is not failed at its end', async () => {
    const out = await through(['retry: 500\nid: ev-1\ndata: \n\n']);
    assert.match(out, /retry: 500\n/);
    assert.match(out, /id: ev-1\ndata: \n\n/);
    assert.doesNotMatch(out, /error/);
  });

  it('an event answering the request with a result that is not an object becomes an unreadable answer for it', async () => {
    const reported: string[] = [];
    const out = await through(['data: {"jsonrpc":"2.0","id":7,"result":"done"}\n\n'], reported);
    const answer = JSON.parse(out.replace(/^data: /, ''));
    assert.equal(answer.id, 7);
    assert.equal(answer.error.message, 'its result is a string, not an object');
    assert.deepEqual(reported, ['an event of its stream: its result is a string, not an object']);
  });

  it('a stream that ends without the answer (and cannot be resumed) ends the request, saying what it could not read', async () => {
    const out = await through(['data: not json\n\n']);
    assert.match(
      out,
      /"id":7,"error":\{"code":-32700,"message":"the event stream ended without the answer \(an event could not be read: it is not valid JSON\)"/,
    );
  });
});
