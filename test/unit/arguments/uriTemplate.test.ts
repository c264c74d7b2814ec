/** Resource templates as arguments forms, and their expansion (src/core/arguments/uriTemplate.ts). */
import assert from 'node:assert/strict';
import { prepareToolSchema } from '../../../src/core/arguments/toolSchema';
import { buildToolArguments } from '../../../src/core/arguments/toolArguments';
import { templateArgumentsSchema, uriToRead } from '../../../src/core/arguments/uriTemplate';
import { HostError } from '../../../src/core/util/errors';

describe('resource templates: variables as a form, then expanded', () => {
  it('one required string field per variable, in the template order, each once', () => {
    const schema = templateArgumentsSchema('demo://{owner}/{repo}/issues{?state,owner}');
    assert.deepEqual(schema, {
      type: 'object',
      properties: {
        owner: { type: 'string', title: 'owner' },
        repo: { type: 'string', title: 'repo' },
        state: { type: 'string', title: 'state' },
      },
      required: ['owner', 'repo', 'state'],
    });
    const prepared = prepareToolSchema(schema, undefined);
    assert.ok(prepared.ok);
    assert.deepEqual(
      prepared.fields.map((f) => [f.key, f.kind, f.required]),
      [
        ['owner', 'text', true],
        ['repo', 'text', true],
        ['state', 'text', true],
      ],
    );
    const missing = buildToolArguments(prepared, { owner: 'a', repo: '', state: 'open' });
    assert.ok(!missing.ok && missing.errors.repo, 'an empty variable is refused');
  });

  it('the form values expand the template (RFC 6570: reserved characters encoded)', () => {
    const template = 'demo://resource/dynamic/text/{resourceId}';
    const prepared = prepareToolSchema(templateArgumentsSchema(template), undefined);
    assert.ok(prepared.ok);
    const built = buildToolArguments(prepared, { resourceId: 'a b/c' });
    assert.ok(built.ok);
    assert.equal(uriToRead(template, built.args), 'demo://resource/dynamic/text/a%20b%2Fc');
  });

  it('a template that cannot be parsed is a usage error', () => {
    assert.throws(
      () => templateArgumentsSchema('demo://{unclosed'),
      (e: unknown) => e instanceof HostError && e.kind === 'usage',
    );
  });
});
