/**
 * Server-chosen property names that are also Object.prototype members ("__proto__", "constructor",
 * "toString", "valueOf") are plain keys everywhere a form or an answer is built and checked (review).
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { checkAnswer } from '../../../src/core/inputs/answers';
import { buildElicitResult, checkFormContent } from '../../../src/core/elicitation/formCheck';
import { buildFormModel } from '../../../src/core/elicitation/formFields';
import { buildToolArguments, validateToolArguments } from '../../../src/core/arguments/toolArguments';
import { prepareToolSchema, type PreparedToolSchemaOk } from '../../../src/core/arguments/toolSchema';
import { terminalInputs } from '../../../src/cli/terminalInputs';
import type { InputContext } from '../../../src/core/inputs/inputProvider';

/** As a server sends them: JSON.parse makes "__proto__" an own key. */
const PROTO_SCHEMA = JSON.parse(
  '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"integer"}},"required":["__proto__","constructor"]}',
);
const MEMBERS_SCHEMA = {
  type: 'object',
  properties: { toString: { type: 'string' }, constructor: { type: 'integer' }, valueOf: { type: 'boolean' }, name: { type: 'string' } },
  required: ['name'],
};

describe('prototype-member property names (review)', () => {
  it('forms: optional "toString", "constructor" and "valueOf" fields left empty do not block accept', () => {
    assert.deepEqual(buildElicitResult(buildFormModel(MEMBERS_SCHEMA), 'accept', { name: 'Ada' }), {
      ok: true,
      result: { action: 'accept', content: { name: 'Ada' } },
    });
  });

  it('forms: a "__proto__" field keeps its value as a plain key of content', () => {
    const out = buildElicitResult(buildFormModel(PROTO_SCHEMA), 'accept', JSON.parse('{"__proto__":"x","constructor":"5"}'));
    assert.ok(out.ok, JSON.stringify(out));
    const content = (out.result as { content: Record<string, unknown> }).content;
    assert.equal(JSON.stringify(content), '{"__proto__":"x","constructor":5}');
    assert.equal(Object.getPrototypeOf(content), Object.prototype);
  });

  it('the authority check does not fail open on a "__proto__" property: wrong types and a missing required key are reported', () => {
    assert.deepEqual(Object.keys(checkFormContent(PROTO_SCHEMA, JSON.parse('{"__proto__":7,"constructor":"x"}'))).sort(), [
      '__proto__',
      'constructor',
    ]);
    assert.deepEqual(Object.keys(checkFormContent(PROTO_SCHEMA, { constructor: 5 })), ['__proto__']);
    assert.deepEqual(checkFormContent(PROTO_SCHEMA, JSON.parse('{"__proto__":"x","constructor":5}')), {});
  });

  it('checkAnswer: an accept without a required "__proto__" or "constructor" is never sent, even without the deep check', () => {
    const entry = {
      key: 'q',
      method: 'elicitation/create' as const,
      params: { mode: 'form', message: 'm', requestedSchema: PROTO_SCHEMA },
    };
    assert.throws(() => checkAnswer(entry, { action: 'accept', content: { constructor: 5 } }), /required field\(s\) missing: __proto__/);
    assert.throws(
      () => checkAnswer(entry, { action: 'accept', content: JSON.parse('{"__proto__":"x"}') }),
      /required field\(s\) missing: constructor/,
    );
  });

  it('tool arguments: optional "toString"/"constructor"/"valueOf" left empty pass; given ones are still checked', () => {
    const prepared = prepareToolSchema(MEMBERS_SCHEMA) as PreparedToolSchemaOk;
    assert.ok(prepared.ok);
    assert.deepEqual(buildToolArguments(prepared, { name: 'Ada' }), { ok: true, args: { name: 'Ada' } });
    assert.deepEqual(validateToolArguments(MEMBERS_SCHEMA, { name: 'Ada' }), { ok: true });
    const bad = validateToolArguments(MEMBERS_SCHEMA, { name: 'Ada', constructor: 'x' });
    assert.ok(!bad.ok && bad.errors.map((e) => e.path).join() === 'constructor', JSON.stringify(bad));
  });

  it('CLI prompts: an empty optional "constructor" field is not re-asked forever while a later field is missing', async () => {
    const input = new PassThrough();
    const out = new PassThrough();
    const answers = ['', 'Ada'];
    let prompts = 0;
    out.on('data', (d: Buffer) => {
      if (!d.toString().endsWith(': ')) return;
      if (++prompts > 5)
        input.end(); // the bug: the same field again and again
      else if (answers.length) input.write(answers.shift() + '\n');
    });
    const ctx: InputContext = {
      key: 'q',
      signal: new AbortController().signal,
      round: { flowId: 1, server: 's', method: 'tools/call', target: 't', round: 1, inputs: [], era: 'modern' },
    };
    const schema = { type: 'object', properties: { constructor: { type: 'integer' }, name: { type: 'string' } }, required: ['name'] };
    const result = await terminalInputs(out, input).elicit({ mode: 'form', message: 'm', requestedSchema: schema } as never, ctx);
    assert.deepEqual(result, { action: 'accept', content: { name: 'Ada' } });
  });
});
