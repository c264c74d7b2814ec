/**
 * `completion/complete` from the host (src/core/connection/completion.ts) and VS Code's completer of
 * argument forms (src/vscode/commands/templateRead.ts), against server-everything over stdio (it has the
 * `completions` capability) and a scripted server (it has not).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { complete, offersCompletions } from '../../../src/core/connection/completion';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { NO_INPUTS } from '../../../src/core/inputs/inputProvider';
import { completerFor } from '../../../src/vscode/commands/argumentCompletion';
import { ROOT } from '../../support/build';
import { scriptedConnection } from '../../support/inMemory';

const EVERYTHING = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

describe('completion/complete for prompt and template forms', function () {
  this.timeout(30_000);
  let conn: ServerConnection;
  before(() => {
    conn = new ServerConnection(
      { transport: 'stdio', name: 'everything', command: process.execPath, args: [EVERYTHING] },
      { provider: NO_INPUTS },
    );
  });
  after(() => conn.close());

  it('a prompt argument: the values for what is typed, narrowed by the other arguments', async () => {
    await conn.ensureConnected();
    assert.ok(offersCompletions(conn));
    const completer = completerFor(conn, { type: 'ref/prompt', name: 'completable-prompt' });
    assert.ok(completer, 'a server with the completions capability gets a completer');
    const signal = new AbortController().signal;
    assert.deepEqual(await completer('department', 'Eng', {}, signal), ['Engineering']);
    const names = await completer('name', '', { department: 'Engineering' }, signal);
    assert.ok(names.length > 0 && names.length <= 100, String(names));
  });

  it('a template variable (ref/resource with the URI template)', async () => {
    const completer = completerFor(conn, { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' });
    const values = await completer!('resourceId', '1', {}, new AbortController().signal);
    assert.ok(values.length > 0 && values.every((v) => v.startsWith('1')), String(values));
  });

  it('a server without the completions capability gets no completer, and complete() says why', async () => {
    const s = scriptedConnection(() => ({ result: {} }), { provider: NO_INPUTS });
    try {
      await s.conn.ensureConnected();
      assert.equal(completerFor(s.conn, { type: 'ref/prompt', name: 'p' }), undefined);
      await assert.rejects(
        complete(s.conn, { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }, {}),
        /does not offer completions/,
      );
      assert.equal(s.requests('completion/complete').length, 0, 'nothing is asked of the server');
    } finally {
      await s.conn.close();
    }
  });
});
