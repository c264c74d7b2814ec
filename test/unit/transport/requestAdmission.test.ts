/** The admission of a server's own requests (src/core/transport/requestAdmission.ts): counted until answered, refused past the bound. */
import * as assert from 'node:assert/strict';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { MAX_INPUT_REQUESTS_PER_ROUND } from '../../../src/core/limits';
import { RequestAdmission } from '../../../src/core/transport/requestAdmission';

describe('RequestAdmission', () => {
  it('admits up to the bound, refuses the next on the wire, and admits again once an answer is written', () => {
    const written: JSONRPCMessage[] = [];
    const refused: string[] = [];
    const admission = new RequestAdmission(
      async (m) => void written.push(m),
      (what) => refused.push(what),
    );
    for (let id = 0; id < MAX_INPUT_REQUESTS_PER_ROUND; id++) assert.equal(admission.admit(id, 'elicitation/create'), true);
    assert.equal(admission.admit('over', 'sampling/createMessage'), false);
    assert.deepEqual(written, [
      {
        jsonrpc: '2.0',
        id: 'over',
        error: { code: -32603, message: `refused: the host answers at most ${MAX_INPUT_REQUESTS_PER_ROUND} requests of a server at once` },
      },
    ]);
    assert.deepEqual(refused, [
      `sent more than ${MAX_INPUT_REQUESTS_PER_ROUND} requests at once (MAX_INPUT_REQUESTS_PER_ROUND): sampling/createMessage refused`,
    ]);
    const answer = { jsonrpc: '2.0', id: 3, result: {} } as JSONRPCMessage;
    assert.equal(admission.answered(answer), 3);
    assert.equal(admission.answered({ jsonrpc: '2.0', id: 3, method: 'x' }), undefined, 'a request is no answer');
    admission.written(3);
    assert.equal(admission.answered(answer), undefined, 'written: no longer counted');
    assert.equal(admission.admit('next', 'roots/list'), true);
  });

  it('drops refusals unanswered while as many refusals wait to be written', () => {
    let writes = 0;
    const admission = new RequestAdmission(() => (writes++, new Promise<void>(() => {})));
    for (let id = 0; id < MAX_INPUT_REQUESTS_PER_ROUND; id++) admission.admit(id, 'elicitation/create');
    for (let id = 0; id < 3 * MAX_INPUT_REQUESTS_PER_ROUND; id++) assert.equal(admission.admit(`x${id}`, 'elicitation/create'), false);
    assert.equal(writes, MAX_INPUT_REQUESTS_PER_ROUND);
  });
});
