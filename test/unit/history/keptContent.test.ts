/** What a history entry keeps of a call's arguments: secret fields left out at any depth, their values handed on to be masked. */
import assert from 'node:assert/strict';
import { keptArguments } from '../../../src/core/history/keptContent';

describe('kept arguments', () => {
  it('a secret field nested in an object or an array is left out (by its schema or its key), and its value handed on', () => {
    const schema = {
      type: 'object',
      properties: {
        connection: { type: 'object', properties: { host: { type: 'string' }, word: { type: 'string', format: 'password' } } },
        servers: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, key: { type: 'string', writeOnly: true } } },
        },
        apiToken: { type: 'string' },
      },
    };
    const args = {
      connection: { host: 'db', word: 'hunter2-secret', credentials: { user: 'u', password: 'pw-nested-9' } },
      servers: [{ name: 'a', key: 'k-0000-secret' }],
      apiToken: 'tok-123456',
    };
    const told: string[] = [];
    const kept = keptArguments('tools/call', { name: 'connect', arguments: args }, schema, (v) => told.push(...v));
    assert.deepEqual(kept.arguments, { connection: { host: 'db' }, servers: [{ name: 'a' }] });
    assert.deepEqual(kept.omittedArguments, ['connection.word', 'connection.credentials', 'servers[0].key', 'apiToken']);
    for (const secret of ['hunter2-secret', 'pw-nested-9', 'k-0000-secret', 'tok-123456'])
      assert.ok(told.includes(secret), `${secret} was not handed on to be masked`);
    assert.ok(!JSON.stringify(kept).includes('secret'));
  });

  it('a field named like a secret inside a value with no schema at all is left out too', () => {
    const kept = keptArguments(
      'tools/call',
      { name: 't', arguments: { options: { headers: { Authorization: 'x', 'x-api-key': 'abcd1234' } } } },
      undefined,
      () => {},
    );
    assert.deepEqual(kept.omittedArguments, ['options.headers.Authorization', 'options.headers.x-api-key']);
    assert.deepEqual(kept.arguments, { options: { headers: {} } });
  });
});
