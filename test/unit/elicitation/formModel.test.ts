/**
 * Form-mode elicitation logic (src/core/elicitation): schema -> form model, raw input -> typed content,
 * the ajv authority check, and the ElicitResult built from them.
 */
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import { buildElicitResult, checkFormContent } from '../../../src/core/elicitation/formCheck';
import { buildFormField, buildFormModel, UnsupportedFieldError } from '../../../src/core/elicitation/formFields';
import { coerceFormValues, FORM_ERROR_KEY } from '../../../src/core/elicitation/formModel';
import { type FormField } from '../../../src/core/elicitation/formField';
import { problemLines } from '../../../src/core/inputs/answers';

const ALL_KINDS = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Full name', description: 'As on your passport', minLength: 2, maxLength: 40 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    count: { type: 'integer', minimum: 1 },
    ok: { type: 'boolean' },
    color: { type: 'string', enum: ['red', 'green'] },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    plan: { type: 'string', enum: ['a', 'b'], enumNames: ['Plan A', 'Plan B'] },
    tags: { type: 'array', items: { type: 'string', enum: ['x', 'y', 'z'] }, minItems: 1, maxItems: 2 },
    langs: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'en', title: 'English' },
          { const: 'fr', title: 'French' },
        ],
      },
    },
  },
  required: ['name', 'count'],
};

function field(schema: unknown, key = 'f', required = false, previous?: unknown): FormField {
  return buildFormField(key, schema, { required, previous });
}

describe('buildFormModel', () => {
  const model = buildFormModel(ALL_KINDS);
  const byKey = Object.fromEntries(model.fields.map((f) => [f.key, f]));

  it('keeps the properties order and maps every supported type to its kind', () => {
    assert.deepEqual(
      model.fields.map((f) => [f.key, f.kind]),
      [
        ['name', 'text'],
        ['email', 'email'],
        ['site', 'uri'],
        ['day', 'date'],
        ['at', 'date-time'],
        ['ratio', 'number'],
        ['count', 'integer'],
        ['ok', 'boolean'],
        ['color', 'select'],
        ['size', 'select'],
        ['plan', 'select'],
        ['tags', 'multiselect'],
        ['langs', 'multiselect'],
      ],
    );
  });

  it('labels from title, else the key; description; required flags', () => {
    assert.deepEqual([byKey.name.label, byKey.name.description, byKey.name.required], ['Full name', 'As on your passport', true]);
    assert.deepEqual([byKey.email.label, byKey.email.description, byKey.email.required], ['email', undefined, false]);
    assert.deepEqual(
      model.fields.filter((f) => f.required).map((f) => f.key),
      ['name', 'count'],
    );
  });

  it('copies constraints', () => {
    assert.deepEqual([byKey.name.minLength, byKey.name.maxLength], [2, 40]);
    assert.deepEqual([byKey.ratio.minimum, byKey.ratio.maximum], [0, 1]);
    assert.deepEqual([byKey.count.minimum, byKey.count.maximum], [1, undefined]);
    assert.deepEqual([byKey.tags.minItems, byKey.tags.maxItems], [1, 2]);
  });

  it('builds options from enum, titled oneOf, enumNames, items.enum and titled items.anyOf', () => {
    assert.deepEqual(byKey.color.options, [
      { value: 'red', label: 'red' },
      { value: 'green', label: 'green' },
    ]);
    assert.deepEqual(byKey.size.options, [
      { value: 's', label: 'Small' },
      { value: 'l', label: 'Large' },
    ]);
    assert.deepEqual(byKey.plan.options, [
      { value: 'a', label: 'Plan A' },
      { value: 'b', label: 'Plan B' },
    ]);
    assert.deepEqual(
      byKey.tags.options?.map((o) => o.value),
      ['x', 'y', 'z'],
    );
    assert.deepEqual(byKey.langs.options, [
      { value: 'en', label: 'English' },
      { value: 'fr', label: 'French' },
    ]);
  });

  it('keeps the schema it came from', () => {
    assert.equal(model.schema, ALL_KINDS);
  });

  describe('rejects what a flat form cannot express, naming the property and why', () => {
    const cases: [string, unknown, RegExp][] = [
      [
        'nested object',
        { type: 'object', properties: { addr: { type: 'object', properties: { city: { type: 'string' } } } } },
        /Field "addr": nested objects are not supported/,
      ],
      [
        'array of non-enum',
        { type: 'object', properties: { list: { type: 'array', items: { type: 'string' } } } },
        /Field "list": arrays are only supported as multi-select/,
      ],
      [
        'array of objects',
        { type: 'object', properties: { rows: { type: 'array', items: { type: 'object' } } } },
        /Field "rows": arrays are only supported/,
      ],
      [
        '$ref',
        { type: 'object', $defs: { X: { type: 'string' } }, properties: { x: { $ref: '#/$defs/X' } } },
        /Field "x": uses \$ref \("#\/\$defs\/X"\)/,
      ],
      ['type list', { type: 'object', properties: { n: { type: ['string', 'null'] } } }, /Field "n": "type" must be a single type name/],
      ['no type', { type: 'object', properties: { q: { description: 'anything' } } }, /Field "q": has no "type"/],
      [
        'untitled oneOf',
        { type: 'object', properties: { u: { type: 'string', oneOf: [{ type: 'string' }] } } },
        /Field "u": "oneOf" is only supported as a list of \{const, title\} choices/,
      ],
      [
        'allOf',
        { type: 'object', properties: { a: { type: 'string', allOf: [{ minLength: 1 }] } } },
        /Field "a": "allOf" is not supported/,
      ],
    ];
    for (const [name, schema, pattern] of cases) {
      it(name, () => {
        assert.throws(
          () => buildFormModel(schema),
          (e: Error) => e instanceof UnsupportedFieldError && pattern.test(e.message),
        );
      });
    }
    it('non-object root', () => {
      assert.throws(() => buildFormModel({ type: 'string' }), /requestedSchema must have "type": "object", got "string"/);
      assert.throws(() => buildFormModel(null), /must be a JSON object schema/);
      assert.throws(() => buildFormModel([]), /must be a JSON object schema/);
    });
    it('root-level $ref', () => {
      assert.throws(() => buildFormModel({ type: 'object', $ref: '#/$defs/A', properties: {} }), /"\$ref" is not allowed at the root/);
    });
    it('required names a property that does not exist (accept would be impossible)', () => {
      assert.throws(
        () => buildFormModel({ type: 'object', properties: {}, required: ['ghost'] }),
        /required names "ghost", which is not in properties/,
      );
    });
    it('multi-select values must be strings in elicitation', () => {
      assert.throws(
        () => buildFormModel({ type: 'object', properties: { n: { type: 'array', items: { enum: [1, 2] } } } }),
        /Field "n": multi-select values must be strings/,
      );
    });
  });

  describe('initial values', () => {
    it('uses a valid default', () => {
      assert.deepEqual(
        [
          field({ type: 'string', default: 'hi' }).initial,
          field({ type: 'number', default: 2.5 }).initial,
          field({ type: 'boolean', default: true }).initial,
        ],
        ['hi', 2.5, true],
      );
      assert.deepEqual(field({ type: 'array', items: { enum: ['x', 'y'] }, default: ['y'] }).initial, ['y']);
    });

    it('ignores a default that does not fit the field, falling back to previous', () => {
      const f = field({ type: 'integer', default: 'lots' }, 'n', false, '7');
      assert.deepEqual([f.initial, f.initialSource], [7, 'previous']);
      assert.equal(field({ type: 'string', enum: ['a'], default: 'zz' }).initial, undefined);
    });

    it('never lose typed input: a previous round value pre-fills when no default', () => {
      const model = buildFormModel(ALL_KINDS, {
        name: 'Ada',
        count: '12',
        ok: 'false',
        color: 'green',
        tags: ['z', 'nope', 'x'],
        at: '2026-11-01T09:30',
      });
      const got = Object.fromEntries(model.fields.filter((f) => f.initial !== undefined).map((f) => [f.key, [f.initial, f.initialSource]]));
      assert.deepEqual(got, {
        name: ['Ada', 'previous'],
        count: [12, 'previous'],
        ok: [false, 'previous'],
        color: ['green', 'previous'],
        tags: [['z', 'x'], 'previous'],
        at: ['2026-11-01T09:30', 'previous'],
      });
    });

    it('drops a previous value that no longer fits the field kind', () => {
      const model = buildFormModel(ALL_KINDS, {
        count: '3abc',
        ratio: 'half',
        ok: 'maybe',
        color: 'blue',
        tags: ['nope'],
        email: 'not-an-email',
        day: '2026-02-30',
      });
      assert.deepEqual(
        model.fields.filter((f) => f.initial !== undefined).map((f) => f.key),
        [],
      );
    });

    it('keeps an out-of-range previous number (the person sees and fixes it) but only the kind is checked', () => {
      assert.equal(field({ type: 'integer', maximum: 9 }, 'r', true, 12).initial, 12);
      assert.equal(field({ type: 'integer' }, 'r', true, 3.5).initial, undefined);
    });

    it('what the person typed last round beats the default (a re-asked round keeps typed input)', () => {
      const f = field({ type: 'integer', default: 2 }, 'r', true, 4);
      assert.deepEqual([f.initial, f.initialSource], [4, 'previous']);
      const g = field({ type: 'integer', default: 2 }, 'r', true);
      assert.deepEqual([g.initial, g.initialSource], [2, 'default']);
    });

    it('policy: a required boolean without default starts unset, also an optional one', () => {
      assert.equal(field({ type: 'boolean' }, 'b', true).initial, undefined);
      assert.equal(field({ type: 'boolean' }, 'b', false).initial, undefined);
    });
  });
});

describe('coerceFormValues', () => {
  const model = buildFormModel(ALL_KINDS);
  const base = { name: 'Ada', count: '1' };

  it('types numbers as JSON numbers and omits empty optional fields', () => {
    const { content, errors } = coerceFormValues(model, { ...base, ratio: '0.25', email: '', site: '   ', ok: undefined, color: '' });
    assert.deepEqual(errors, {});
    assert.deepEqual(content, { name: 'Ada', ratio: 0.25, count: 1 });
  });

  it('integers: whole numbers (also 3.0, +4, 1e2 and surrounding spaces); fractions and junk rejected', () => {
    const ok = (v: string) => coerceFormValues(model, { ...base, count: v }).content.count;
    assert.deepEqual(['3.0', '+4', '1e2', ' 7 '].map(ok), [3, 4, 100, 7]);
    for (const bad of ['2.5', '3abc', '0x10', '1,5', '--1', 'Infinity', '9007199254740993', '0']) {
      assert.equal(coerceFormValues(model, { ...base, count: bad }).errors.count, 'Must be a whole number of 1 or more', bad);
    }
  });

  it('numbers: range messages', () => {
    assert.equal(coerceFormValues(model, { ...base, ratio: '1.5' }).errors.ratio, 'Must be a number between 0 and 1');
    assert.equal(coerceFormValues(model, { ...base, ratio: 'x' }).errors.ratio, 'Must be a number between 0 and 1');
    const onlyMax = buildFormModel({ type: 'object', properties: { t: { type: 'number', maximum: 10 } } });
    assert.equal(coerceFormValues(onlyMax, { t: '11' }).errors.t, 'Must be a number of 10 or less');
  });

  it('text: kept verbatim (spaces included), length counted in code points', () => {
    assert.equal(coerceFormValues(model, { ...base, name: '  Ada  ' }).content.name, '  Ada  ');
    assert.equal(coerceFormValues(model, { ...base, name: '😀😀' }).errors.name, undefined); // 2 code points, 4 UTF-16 units
    assert.equal(coerceFormValues(model, { ...base, name: 'A' }).errors.name, 'Must be between 2 and 40 characters');
  });

  it('formats: email, uri, date, date-time', () => {
    const errs = coerceFormValues(model, { ...base, email: 'ada@', site: 'example.com', day: '2026-02-30', at: 'tomorrow' }).errors;
    assert.deepEqual(errs, {
      email: 'Must be an email address like name@example.com',
      site: 'Must be a full URI like https://example.com/page',
      day: 'Must be a date like 2026-11-01',
      at: 'Must be a date and time like 2026-11-01T09:30:00Z',
    });
    const good = coerceFormValues(model, {
      ...base,
      email: ' ada@example.com ',
      site: 'https://example.com/x',
      day: '2028-02-29',
      at: '2026-11-01T09:30:00+01:00',
    });
    assert.deepEqual(good.errors, {});
    assert.deepEqual(
      [good.content.email, good.content.day, good.content.at],
      ['ada@example.com', '2028-02-29', '2026-11-01T09:30:00+01:00'],
    );
  });

  it('a datetime-local value (no seconds, no offset) becomes RFC 3339 in local time', () => {
    const { content, errors } = coerceFormValues(model, { ...base, at: '2026-11-01T09:30' });
    assert.deepEqual(errors, {});
    const at = content.at as string;
    assert.match(at, /^2026-11-01T09:30:00(Z|[+-]\d{2}:\d{2})$/);
    assert.equal(new Date(at).getTime(), new Date(2026, 10, 1, 9, 30, 0).getTime());
  });

  it('booleans: checkbox booleans and radio strings; anything else is an error', () => {
    assert.equal(coerceFormValues(model, { ...base, ok: true }).content.ok, true);
    assert.equal(coerceFormValues(model, { ...base, ok: 'false' }).content.ok, false);
    assert.equal(coerceFormValues(model, { ...base, ok: 'on' }).errors.ok, 'Choose Yes or No');
  });

  it('selects send the option value; multi-selects send arrays, checked against items limits', () => {
    const { content, errors } = coerceFormValues(model, { ...base, size: 'l', tags: ['y', 'x', 'y'], langs: ['fr'] });
    assert.deepEqual(errors, {});
    assert.deepEqual([content.size, content.tags, content.langs], ['l', ['y', 'x'], ['fr']]);
    assert.equal(coerceFormValues(model, { ...base, tags: ['x', 'y', 'z'] }).errors.tags, 'Choose between 1 and 2');
    assert.equal(coerceFormValues(model, { ...base, tags: ['w'] }).errors.tags, 'Choose only from the listed options');
    assert.equal('tags' in coerceFormValues(model, { ...base, tags: [] }).content, false); // optional, left empty
  });

  it('a select matches a number option from the string an HTML select gives', () => {
    const m = buildFormModel({ type: 'object', properties: { n: { type: 'integer', enum: [1, 2, 3] } } });
    assert.deepEqual(coerceFormValues(m, { n: '2' }).content, { n: 2 });
  });

  it('required fields left empty: "Required"', () => {
    assert.deepEqual(coerceFormValues(model, {}).errors, { name: 'Required', count: 'Required' });
  });
});

describe('checkFormContent (ajv authority check)', () => {
  it('returns {} for valid content', () => {
    assert.deepEqual(
      checkFormContent(ALL_KINDS, { name: 'Ada', count: 2, email: 'ada@example.com', tags: ['x'], ok: false, plan: 'b' }),
      {},
    );
  });

  it('reports missing required keys, wrong types and formats per field', () => {
    assert.deepEqual(checkFormContent(ALL_KINDS, { count: '2', email: 'nope', ok: 'true', day: '2026-13-01' }), {
      name: 'Required',
      count: 'Must be a whole number of 1 or more',
      email: 'Must be an email address like name@example.com',
      ok: 'Must be Yes or No (true or false)',
      day: 'Must be a date like 2026-11-01',
    });
  });

  it('enumNames is tolerated; enum membership is enforced', () => {
    assert.deepEqual(checkFormContent(ALL_KINDS, { name: 'Ada', count: 1, plan: 'a' }), {});
    assert.deepEqual(checkFormContent(ALL_KINDS, { name: 'Ada', count: 1, plan: 'Plan A', langs: ['de'] }), {
      plan: 'Choose one of the options',
      langs: 'Choose only from the listed options',
    });
  });

  it('rejects keys the form did not ask for and non-primitive values', () => {
    assert.deepEqual(checkFormContent(ALL_KINDS, { name: 'Ada', count: 1, token: 'secret' }), { token: 'Not a field of this form' });
    assert.equal(
      checkFormContent(ALL_KINDS, { name: { first: 'Ada' }, count: 1 }).name,
      'Must be text, a number, true/false or a list of choices',
    );
  });

  it('a schema that is not a valid elicitation form is a form-level error, not a throw', () => {
    const errs = checkFormContent({ type: 'object', properties: { a: { type: 'object' } } }, { a: {} });
    assert.match(errs[FORM_ERROR_KEY], /not a valid elicitation form: Field "a": nested objects/);
    assert.match(checkFormContent(ALL_KINDS, 'x')[FORM_ERROR_KEY], /Content must be an object/);
  });

  it('ignores $schema (any dialect) for the restricted schema', () => {
    const s = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    };
    assert.deepEqual(checkFormContent(s, {}), { a: 'Required' });
  });

  it('compiles a schema once, even when each round brings a new (equal) schema object', () => {
    const proto = Ajv2020.prototype as unknown as { compile: (...a: unknown[]) => unknown };
    const original = proto.compile;
    let compiles = 0;
    proto.compile = function (this: unknown, ...args: unknown[]) {
      compiles++;
      return original.apply(this, args);
    };
    try {
      const fresh = () => ({ type: 'object', properties: { cache_probe: { type: 'integer', minimum: 7 } }, required: ['cache_probe'] });
      for (let round = 0; round < 5; round++)
        assert.deepEqual(checkFormContent(fresh(), { cache_probe: 6 }), { cache_probe: 'Must be a whole number of 7 or more' });
      assert.equal(compiles, 1);
    } finally {
      delete (proto as { compile?: unknown }).compile; // back to the inherited method
    }
  });

  it('checkFormContent\'s problems as "key: message" lines (answers.ts problemLines)', () => {
    assert.deepEqual(problemLines(checkFormContent(ALL_KINDS, { count: 0 })), [
      'name: Required',
      'count: Must be a whole number of 1 or more',
    ]);
    assert.deepEqual(problemLines(checkFormContent(ALL_KINDS, { name: 'Ada', count: 1 })), []);
  });
});

describe('buildElicitResult', () => {
  const model = buildFormModel(ALL_KINDS);

  it('accept returns typed content only when valid', () => {
    const out = buildElicitResult(model, 'accept', { name: 'Ada', count: '2', ratio: '0.5', tags: ['z'], ok: false });
    assert.deepEqual(out, {
      ok: true,
      result: { action: 'accept', content: { name: 'Ada', ratio: 0.5, count: 2, ok: false, tags: ['z'] } },
    });
  });

  it('accept with problems returns the errors and no result', () => {
    const out = buildElicitResult(model, 'accept', { name: 'A', count: '0' });
    assert.deepEqual(out, {
      ok: false,
      errors: { name: 'Must be between 2 and 40 characters', count: 'Must be a whole number of 1 or more' },
    });
  });

  it('accept of a form without fields sends content {} (nothing is required)', () => {
    assert.deepEqual(buildElicitResult(buildFormModel({ type: 'object', properties: {} }), 'accept', {}), {
      ok: true,
      result: { action: 'accept', content: {} },
    });
  });

  it('the ajv check runs too: a constraint the form does not model (pattern) still blocks accept', () => {
    const m = buildFormModel({ type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' } }, required: ['code'] });
    const out = buildElicitResult(m, 'accept', { code: 'abc' });
    assert.deepEqual(out, { ok: false, errors: { code: 'Must match the pattern ^[A-Z]{3}$' } });
    assert.deepEqual(buildElicitResult(m, 'accept', { code: 'ABC' }), { ok: true, result: { action: 'accept', content: { code: 'ABC' } } });
  });
});
