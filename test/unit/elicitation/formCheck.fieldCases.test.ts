/**
 * Field cases F1-F4 (/work/shared/cases/field-cases.md) turned into tests of the form logic:
 * the exact values a correct host produces for each input.
 */
import assert from 'node:assert/strict';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { buildElicitResult } from '../../../src/core/elicitation/formCheck';
import { buildFormModel } from '../../../src/core/elicitation/formFields';
import { coerceFormValues, type ElicitAnswer, type FormModel, type RawFormValues } from '../../../src/core/elicitation/formModel';

/** Accept with `raw`, asserting that it is blocked; returns the errors. */
function blocked(model: FormModel, raw: RawFormValues): Record<string, string> {
  const out = buildElicitResult(model, 'accept', raw);
  assert.equal(out.ok, false, `expected accept to be blocked for ${JSON.stringify(raw)}`);
  return out.ok ? {} : out.errors;
}

/** Accept with `raw`, asserting that it goes through; returns the ElicitResult. */
function accepted(model: FormModel, raw: RawFormValues): ElicitAnswer {
  const out = buildElicitResult(model, 'accept', raw);
  assert.ok(out.ok, `expected accept, got ${JSON.stringify(out)}`);
  return out.result;
}

describe('field case F1: integer field, required, 1-5', () => {
  const requestedSchema = { type: 'object', properties: { copies: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['copies'] };
  const model = buildFormModel(requestedSchema);

  it('shows copies as a numeric (integer) input, not approve/deny only', () => {
    assert.equal(model.fields.length, 1);
    assert.deepEqual(
      {
        key: model.fields[0].key,
        kind: model.fields[0].kind,
        required: model.fields[0].required,
        minimum: model.fields[0].minimum,
        maximum: model.fields[0].maximum,
      },
      { key: 'copies', kind: 'integer', required: true, minimum: 1, maximum: 5 },
    );
    assert.equal(model.fields[0].initial, undefined);
  });

  it('blocks empty with "Required"', () => {
    assert.deepEqual(blocked(model, { copies: '' }), { copies: 'Required' });
    assert.deepEqual(blocked(model, {}), { copies: 'Required' });
  });

  for (const input of ['0', '6', '3.5', '3abc']) {
    it(`blocks ${JSON.stringify(input)} with an inline range/whole-number error`, () => {
      assert.deepEqual(blocked(model, { copies: input }), { copies: 'Must be a whole number between 1 and 5' });
    });
  }

  it('accepts "3" as the JSON integer 3, giving exactly {"qty":{"action":"accept","content":{"copies":3}}}', () => {
    const result = accepted(model, { copies: '3' });
    const inputResponses = { qty: result };
    assert.deepEqual(inputResponses, { qty: { action: 'accept', content: { copies: 3 } } });
    assert.ok(result.action === 'accept');
    assert.equal(typeof result.content.copies, 'number');
    assert.ok(Number.isInteger(result.content.copies));
    assert.equal(JSON.stringify(result), '{"action":"accept","content":{"copies":3}}'); // never the string "3"
  });

  it('never produces accept with content {} (nor missing the required key), whatever the input', () => {
    for (const copies of ['', ' ', undefined, null, '0', '6', '3.5', '3abc', 'three', '1e9', 'NaN', 'Infinity', true]) {
      const out = buildElicitResult(model, 'accept', { copies: copies as never });
      if (out.ok) assert.fail(`unexpected accept for ${JSON.stringify(copies)}: ${JSON.stringify(out.result)}`);
    }
  });

  it('re-asked round (same keys): pre-fills what was typed last time, so the person can resubmit', () => {
    const again = buildFormModel(requestedSchema, { copies: '3' });
    assert.equal(again.fields[0].initial, 3);
    assert.equal(again.fields[0].initialSource, 'previous');
    // Submitting the pre-filled value unchanged gives the same, typed answer.
    assert.deepEqual(accepted(again, { copies: again.fields[0].initial }), { action: 'accept', content: { copies: 3 } });
  });
});

describe('field case F2: booleans', () => {
  const requestedSchema = {
    type: 'object',
    properties: {
      notify: { type: 'boolean', title: 'Send a notification?', default: false },
      archive: { type: 'boolean', title: 'Archive after sending?' },
    },
    required: ['archive'],
  };
  const model = buildFormModel(requestedSchema);

  it('both are two-state boolean controls; notify starts off (default false); archive (required, no default) starts unset', () => {
    const [notify, archive] = model.fields;
    assert.deepEqual([notify.kind, notify.label, notify.initial, notify.required], ['boolean', 'Send a notification?', false, false]);
    assert.deepEqual([archive.kind, archive.label, archive.required], ['boolean', 'Archive after sending?', true]);
    assert.equal(archive.initial, undefined);
    assert.ok(!('initial' in archive), 'an untouched required boolean must not start as false');
  });

  it('notify on + archive explicitly "No" gives {"notify":true,"archive":false} as booleans', () => {
    const result = accepted(model, { notify: true, archive: false });
    assert.deepEqual(result, { action: 'accept', content: { notify: true, archive: false } });
    assert.ok(result.action === 'accept');
    assert.equal(typeof result.content.notify, 'boolean');
    assert.equal(typeof result.content.archive, 'boolean');
  });

  it('radio values "true"/"false" become booleans; "yes" is rejected, never sent', () => {
    assert.deepEqual(accepted(model, { notify: 'true', archive: 'false' }), {
      action: 'accept',
      content: { notify: true, archive: false },
    });
    assert.deepEqual(blocked(model, { notify: true, archive: 'yes' }), { archive: 'Choose Yes or No' });
  });

  it('blocks submit while the required boolean is untouched (never sent as false)', () => {
    const errors = blocked(model, { notify: true });
    assert.deepEqual(Object.keys(errors), ['archive']);
    assert.match(errors.archive, /Required/);
    assert.deepEqual(blocked(model, { notify: true, archive: '' }), errors);
  });
});

describe('field case F3: titled enums, enumNames, defaults and ranges', () => {
  const requestedSchema = {
    type: 'object',
    properties: {
      region: {
        type: 'string',
        title: 'Region',
        oneOf: [
          { const: 'eu-w', title: 'Europe (West)' },
          { const: 'us-e', title: 'US (East)' },
          { const: 'ap-s', title: 'Asia Pacific (South)' },
        ],
        default: 'us-e',
      },
      tier: { type: 'string', enum: ['basic', 'pro'], enumNames: ['Basic plan', 'Pro plan'], default: 'basic' },
      replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 9, default: 2 },
    },
    required: ['region', 'replicas'],
  };
  const model = buildFormModel(requestedSchema);
  const byKey = Object.fromEntries(model.fields.map((f) => [f.key, f]));

  it('labels come from titles and enumNames, never the raw consts', () => {
    assert.deepEqual(byKey.region.options, [
      { value: 'eu-w', label: 'Europe (West)' },
      { value: 'us-e', label: 'US (East)' },
      { value: 'ap-s', label: 'Asia Pacific (South)' },
    ]);
    assert.deepEqual(byKey.tier.options, [
      { value: 'basic', label: 'Basic plan' },
      { value: 'pro', label: 'Pro plan' },
    ]);
    assert.deepEqual([byKey.region.kind, byKey.tier.kind, byKey.replicas.kind], ['select', 'select', 'integer']);
  });

  it('opens with "US (East)", "Basic plan" and 2 selected/filled', () => {
    assert.deepEqual([byKey.region.initial, byKey.tier.initial, byKey.replicas.initial], ['us-e', 'basic', 2]);
    const label = (k: string) => byKey[k].options!.find((o) => o.value === byKey[k].initial)!.label;
    assert.deepEqual([label('region'), label('tier')], ['US (East)', 'Basic plan']);
  });

  it('flow A: submitting untouched gives {"region":"us-e","tier":"basic","replicas":2} (enumNames causes no error)', () => {
    const untouched = Object.fromEntries(model.fields.map((f) => [f.key, f.initial as never]));
    assert.deepEqual(accepted(model, untouched), { action: 'accept', content: { region: 'us-e', tier: 'basic', replicas: 2 } });
    // The same, as an HTML form would hand the values over (strings).
    assert.deepEqual(accepted(model, { region: 'us-e', tier: 'basic', replicas: '2' }), {
      action: 'accept',
      content: { region: 'us-e', tier: 'basic', replicas: 2 },
    });
  });

  it('flow B: replicas 12 is an inline error that blocks submit', () => {
    assert.deepEqual(blocked(model, { region: 'ap-s', tier: 'pro', replicas: '12' }), {
      replicas: 'Must be a whole number between 1 and 9',
    });
  });

  it('flow B: with 4, content is {"region":"ap-s","tier":"pro","replicas":4}: consts, not titles; a number', () => {
    const result = accepted(model, { region: 'ap-s', tier: 'pro', replicas: '4' });
    assert.deepEqual(result, { action: 'accept', content: { region: 'ap-s', tier: 'pro', replicas: 4 } });
    assert.ok(result.action === 'accept');
    assert.equal(typeof result.content.replicas, 'number');
  });

  it('a title typed in place of a const is not accepted as that choice', () => {
    const { errors } = coerceFormValues(model, { region: 'Asia Pacific (South)', tier: 'Pro plan', replicas: '4' });
    assert.deepEqual(errors, { region: 'Choose one of the options', tier: 'Choose one of the options' });
  });
});

describe('field case F4: decline and cancel', () => {
  const requestedSchema = { type: 'object', properties: { reason: { type: 'string', minLength: 5 } }, required: ['reason'] };
  const model = buildFormModel(requestedSchema);

  it('A: Decline with the box empty gives exactly {"action":"decline"}, no content key, no validation error', () => {
    const out = buildElicitResult(model, 'decline', { reason: '' });
    assert.ok(out.ok, 'decline must not be validated');
    assert.deepEqual({ why: out.result }, { why: { action: 'decline' } });
    assert.equal('content' in out.result, false);
  });

  it('B: closing / Escape gives exactly {"action":"cancel"}, no content key', () => {
    const out = buildElicitResult(model, 'cancel');
    assert.ok(out.ok);
    assert.deepEqual(out.result, { action: 'cancel' });
    assert.equal('content' in out.result, false);
  });

  it('C: typing "ok" (too short) then Decline sends {"action":"decline"}; the typed text goes nowhere', () => {
    const out = buildElicitResult(model, 'decline', { reason: 'ok' });
    assert.ok(out.ok);
    assert.deepEqual(Object.keys(out.result), ['action']);
    assert.deepEqual(out.result, { action: 'decline' });
    assert.ok(!JSON.stringify(out.result).includes('"ok"'));
  });

  it('"ok" with Accept is blocked (minLength 5), so accept is never sent invalid', () => {
    assert.deepEqual(blocked(model, { reason: 'ok' }), { reason: 'Must be at least 5 characters' });
    assert.deepEqual(accepted(model, { reason: 'stale branch' }), { action: 'accept', content: { reason: 'stale branch' } });
  });

  it('only the accept action produces "accept"; an unknown action throws', () => {
    for (const action of ['decline', 'cancel'] as const) {
      const out = buildElicitResult(model, action, { reason: 'long enough reason' });
      assert.ok(out.ok && out.result.action === action);
    }
    assert.throws(() => buildElicitResult(model, 'dismiss' as never, {}), /Unknown elicitation action "dismiss"/);
  });

  it('results are assignable to the SDK ElicitResult type', () => {
    const out = buildElicitResult(model, 'accept', { reason: 'long enough reason' });
    assert.ok(out.ok);
    const sdk: ElicitResult = out.result; // compile-time check of the wire shape
    assert.equal(sdk.action, 'accept');
  });
});
