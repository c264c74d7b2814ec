/**
 * Tool inputSchema handling (src/core/jsonSchema): local $ref resolution, never fetching remote refs,
 * bounded cost for recursive/hostile schemas, form/JSON field split, argument validation and
 * coercion. Field case F10 (/work/shared/cases/field-cases.md) with its exact values.
 */
import assert from 'node:assert/strict';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import Ajv2020 from 'ajv/dist/2020';
import { buildToolArguments, coerceToolArguments, validateToolArguments } from '../../../src/core/arguments/toolArguments';
import { MAX_SCHEMA_DEPTH, MAX_SUBSCHEMA_VISITS } from '../../../src/core/jsonSchema/document';
import {
  prepareToolSchema,
  WHOLE_ARGUMENTS_KEY,
  type JsonField,
  type PreparedToolSchema,
  type PreparedToolSchemaOk,
  type ToolField,
} from '../../../src/core/arguments/toolSchema';

/** F10's tools/list, as text: every test parses its own fresh copy. */
const F10_TOOLS = `[ { "name": "find_orders", "inputSchema": { "type": "object",
      "$defs": { "Window": { "type": "object",
                             "properties": { "from": { "type": "string", "format": "date" },
                                             "to":   { "type": "string", "format": "date" } },
                             "required": ["from"] } },
      "properties": { "window": { "$ref": "#/$defs/Window" }, "limit": { "type": "integer", "default": 20 } },
      "required": ["window"] } },
  { "name": "tree_walk", "inputSchema": { "type": "object",
      "$defs": { "Node": { "type": "object", "properties": { "name": { "type": "string" },
                  "children": { "type": "array", "items": { "$ref": "#/$defs/Node" } } } } },
      "properties": { "root": { "$ref": "#/$defs/Node" } } } },
  { "name": "remote_ref", "inputSchema": { "type": "object",
      "properties": { "cfg": { "$ref": "https://schemas.example.test/cfg.json" } } } },
  { "name": "ping", "inputSchema": { "type": "object", "properties": {} } } ]`;

function tool(name: string): Record<string, unknown> {
  const t = (JSON.parse(F10_TOOLS) as { name: string; inputSchema: Record<string, unknown> }[]).find((x) => x.name === name);
  return t!.inputSchema;
}

function ok(p: PreparedToolSchema): PreparedToolSchemaOk {
  if (!p.ok) assert.fail(`expected ok, got error: ${p.error}`);
  return p;
}

function fieldOf(p: PreparedToolSchemaOk, key: string): ToolField {
  const f = p.fields.find((x) => x.key === key);
  assert.ok(f, `no field ${key}`);
  return f;
}

/** Every `$ref` in `doc`, each resolved as a JSON pointer inside `doc` itself (throws if one is not). */
function assertRefsResolveInside(doc: unknown): string[] {
  const refs: string[] = [];
  const walk = (n: unknown) => {
    if (Array.isArray(n)) n.forEach(walk);
    else if (n && typeof n === 'object') {
      for (const [k, v] of Object.entries(n)) {
        if (k === '$ref' && typeof v === 'string') refs.push(v);
        else walk(v);
      }
    }
  };
  walk(doc);
  for (const ref of refs) {
    assert.ok(ref.startsWith('#'), `ref ${ref} is not local`);
    let target: unknown = doc;
    for (const seg of decodeURIComponent(ref.slice(1)).split('/').slice(1)) {
      target = (target as Record<string, unknown>)?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    assert.ok(target && typeof target === 'object', `ref ${ref} does not resolve inside the document`);
  }
  return refs;
}

/** Replaces every way this process could reach the network with a thrower that counts attempts. */
function forbidNetwork(): { attempts: string[]; restore: () => void } {
  const attempts: string[] = [];
  const saved: [Record<string, unknown>, string, unknown][] = [];
  const stub = (obj: object, name: string) => {
    const o = obj as Record<string, unknown>;
    saved.push([o, name, o[name]]);
    o[name] = (...args: unknown[]) => {
      attempts.push(`${name}(${String(args[0])})`);
      throw new Error(`network access attempted: ${name}`);
    };
  };
  stub(globalThis, 'fetch');
  for (const m of [http, https]) {
    stub(m, 'request');
    stub(m, 'get');
  }
  stub(net, 'connect');
  stub(net, 'createConnection');
  stub(tls, 'connect');
  stub(dns, 'lookup');
  return {
    attempts,
    restore: () => {
      for (const [o, name, v] of saved.reverse()) o[name] = v;
    },
  };
}

describe('field case F10: $defs/$ref in tool input schemas', () => {
  let guard: ReturnType<typeof forbidNetwork>;
  beforeEach(() => {
    guard = forbidNetwork();
  });
  afterEach(() => {
    guard.restore();
    assert.deepEqual(guard.attempts, [], 'no network request may be made');
  });

  describe('find_orders', () => {
    it('prepares: window is a JSON field (nested object), limit an integer field with default 20', () => {
      const p = ok(prepareToolSchema(tool('find_orders')));
      assert.equal(p.wholeArguments, false);
      assert.deepEqual(
        p.fields.map((f) => [f.key, f.kind, f.required]),
        [
          ['window', 'json', true],
          ['limit', 'integer', false],
        ],
      );
      assert.equal(fieldOf(p, 'limit').initial, 20);
      const win = fieldOf(p, 'window') as JsonField;
      assert.deepEqual(win.schema, {
        type: 'object',
        properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' } },
        required: ['from'],
      });
      assert.match(win.reason, /nested objects/);
    });

    it('the schema for the model resolves inside itself: here every $ref is inlined', () => {
      const p = ok(prepareToolSchema(tool('find_orders')));
      assert.deepEqual(assertRefsResolveInside(p.schema), []);
      assert.deepEqual((p.schema.properties as Record<string, unknown>).window, {
        type: 'object',
        properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' } },
        required: ['from'],
      });
      assert.equal('$defs' in p.schema, false); // nothing refers to it any more
      assert.deepEqual(p.original, tool('find_orders'));
    });

    it('{"window":{"from":"2026-11-01"}} is valid', () => {
      assert.deepEqual(validateToolArguments(tool('find_orders'), { window: { from: '2026-11-01' } }), { ok: true });
    });

    it('{"limit":5} is rejected before sending, naming window', () => {
      const r = validateToolArguments(tool('find_orders'), { limit: 5 });
      assert.ok(!r.ok);
      assert.equal(r.message, 'window: is required');
      assert.deepEqual(r.errors, [{ path: 'window', segments: ['window'], message: 'is required' }]);
      assert.equal(r.schemaError, undefined);
    });

    it('a bad date inside window names the nested path', () => {
      const r = validateToolArguments(tool('find_orders'), { window: { from: '2026-11-31' } });
      assert.ok(!r.ok);
      assert.equal(r.message, 'window.from: must be a date like 2026-11-01');
    });

    it('from the form: window JSON text + limit text become typed arguments', () => {
      const p = ok(prepareToolSchema(tool('find_orders')));
      assert.deepEqual(buildToolArguments(p, { window: '{"from":"2026-11-01"}', limit: '5' }), {
        ok: true,
        args: { window: { from: '2026-11-01' }, limit: 5 },
      });
      assert.deepEqual(buildToolArguments(p, { window: '', limit: '5' }), {
        ok: false,
        errors: { window: 'Required' },
        message: 'window: Required',
      });
      assert.deepEqual(buildToolArguments(p, { window: '{"to":"2026-11-02"}' }), {
        ok: false,
        errors: { window: 'from: is required' },
        message: 'window.from: is required',
      });
    });
  });

  describe('tree_walk (recursive)', () => {
    it('prepares in bounded time; the recursive ref stays a pointer into the kept root $defs', () => {
      const p = ok(prepareToolSchema(tool('tree_walk')));
      const refs = assertRefsResolveInside(p.schema);
      assert.deepEqual(refs, ['#/$defs/Node', '#/$defs/Node']); // one in the inlined root, one inside $defs.Node
      assert.deepEqual(Object.keys(p.schema.$defs as object), ['Node']);
      const root = fieldOf(p, 'root') as JsonField;
      assert.equal(root.kind, 'json');
      assertRefsResolveInside(root.schema); // the field's schema reads on its own too
    });

    it('validates a 200-level tree and names the failing nested path', () => {
      let node: Record<string, unknown> = { name: 'leaf' };
      for (let i = 0; i < 200; i++) node = { name: `n${i}`, children: [node] };
      assert.deepEqual(validateToolArguments(tool('tree_walk'), { root: node }), { ok: true });
      const r = validateToolArguments(tool('tree_walk'), { root: { name: 'a', children: [{ name: 'b' }, { name: 7 }] } });
      assert.ok(!r.ok);
      assert.equal(r.message, 'root.children[1].name: must be text');
    });

    it('arguments nested absurdly deep give an error, not a stack overflow', () => {
      let node: Record<string, unknown> = { name: 'leaf' };
      for (let i = 0; i < 100_000; i++) node = { children: [node] };
      const r = validateToolArguments(tool('tree_walk'), { root: node });
      assert.ok(!r.ok);
      assert.match(r.message, /nested too deeply/);
    });
  });

  describe('remote_ref', () => {
    it('is marked invalid with a message naming the URL, and nothing is fetched', () => {
      const p = prepareToolSchema(tool('remote_ref'));
      assert.ok(!p.ok);
      assert.equal(
        p.error,
        '$ref "https://schemas.example.test/cfg.json" at /properties/cfg points outside this schema; remote references are never fetched',
      );
    });

    it('validation refuses too (a missing remote ref is never silently accepted)', () => {
      const r = validateToolArguments(tool('remote_ref'), { cfg: { anything: true } });
      assert.ok(!r.ok);
      assert.equal(r.schemaError, true);
      assert.match(r.message, /https:\/\/schemas\.example\.test\/cfg\.json/);
      assert.match(r.message, /never fetched/);
    });

    for (const ref of [
      'http://schemas.example.test/cfg.json',
      'cfg.json',
      '../shared/cfg.json#/Cfg',
      'file:///etc/cfg.json',
      'urn:example:cfg',
      'https://schemas.example.test/cfg.json#/$defs/A',
    ]) {
      it(`any non-local ref is an error naming it: ${ref}`, () => {
        const schema = { type: 'object', properties: { cfg: { $ref: ref } } };
        const p = prepareToolSchema(schema);
        assert.ok(!p.ok);
        assert.ok(p.error.includes(`"${ref}"`), p.error);
        const r = validateToolArguments(schema, {});
        assert.ok(!r.ok && r.schemaError);
      });
    }

    it('a remote ref nested deep inside $defs is found as well', () => {
      const schema = {
        type: 'object',
        $defs: { A: { type: 'object', properties: { b: { anyOf: [{ type: 'null' }, { $ref: 'https://evil.example.test/b.json' }] } } } },
        properties: { a: { $ref: '#/$defs/A' } },
      };
      const p = prepareToolSchema(schema);
      assert.ok(!p.ok);
      assert.match(p.error, /"https:\/\/evil\.example\.test\/b\.json" at \/\$defs\/A\/properties\/b\/anyOf\/1/);
    });
  });

  describe('ping', () => {
    it('has no fields, and {} is valid', () => {
      const p = ok(prepareToolSchema(tool('ping')));
      assert.deepEqual(p.fields, []);
      assert.equal(p.wholeArguments, false);
      assert.deepEqual(p.schema, { type: 'object', properties: {} });
      assert.deepEqual(validateToolArguments(tool('ping'), {}), { ok: true });
      assert.deepEqual(buildToolArguments(p, {}), { ok: true, args: {} });
    });
  });

  it('one bad schema never hides the rest: three of the four tools prepare', () => {
    const tools = JSON.parse(F10_TOOLS) as { name: string; inputSchema: unknown }[];
    const usable = tools.filter((t) => prepareToolSchema(t.inputSchema).ok).map((t) => t.name);
    assert.deepEqual(usable, ['find_orders', 'tree_walk', 'ping']);
  });
});

describe('schema limits (hostile schemas)', () => {
  it('exports the limits', () => {
    assert.deepEqual([MAX_SCHEMA_DEPTH, MAX_SUBSCHEMA_VISITS], [32, 1000]);
  });

  it(`more than ${MAX_SUBSCHEMA_VISITS} subschemas (anyOf branches) is refused, by prepare and validate`, () => {
    const schema = { type: 'object', properties: { x: { anyOf: Array.from({ length: 5000 }, (_, i) => ({ const: i })) } } };
    const p = prepareToolSchema(schema);
    assert.ok(!p.ok);
    assert.match(p.error, /more than 1000 subschemas/);
    const r = validateToolArguments(schema, { x: 1 });
    assert.ok(!r.ok && r.schemaError);
    assert.match(r.message, /more than 1000 subschemas/);
  });

  it(`nesting deeper than ${MAX_SCHEMA_DEPTH} is refused; exactly at the limit is fine`, () => {
    const nest = (levels: number) => {
      let s: Record<string, unknown> = { type: 'string' };
      for (let i = 0; i < levels; i++) s = { type: 'object', properties: { a: s } };
      return s;
    };
    // nest(n) puts the innermost subschema n levels below the root
    assert.ok(prepareToolSchema(nest(32)).ok);
    const p = prepareToolSchema(nest(33));
    assert.ok(!p.ok);
    assert.match(p.error, /nested deeper than 32 levels/);
  });

  it('$defs entries count too: many definitions are bounded', () => {
    const $defs = Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`D${i}`, { type: 'string' }]));
    const p = prepareToolSchema({ type: 'object', $defs, properties: {} });
    assert.ok(!p.ok);
    assert.match(p.error, /more than 1000 subschemas/);
  });

  it('a $ref that refers to itself is rejected instead of overflowing the stack', () => {
    const schema = { type: 'object', $defs: { A: { $ref: '#/$defs/A' } }, properties: { x: { $ref: '#/$defs/A' } } };
    const p = prepareToolSchema(schema);
    assert.ok(!p.ok);
    assert.equal(p.error, '$ref cycle with no property in between (/$defs/A -> /$defs/A): it can never be validated');
    const r = validateToolArguments(schema, { x: 1 });
    assert.ok(!r.ok && r.schemaError);
  });

  it('a cycle through allOf/anyOf with no property in between is rejected', () => {
    const schema = {
      type: 'object',
      $defs: { A: { allOf: [{ $ref: '#/$defs/B' }] }, B: { anyOf: [{ $ref: '#/$defs/A' }, { type: 'string' }] } },
      properties: { x: { $ref: '#/$defs/A' } },
    };
    const r = validateToolArguments(schema, { x: 'a' });
    assert.ok(!r.ok && r.schemaError);
    assert.match(
      r.message,
      /\$ref cycle with no property in between \(\/\$defs\/A -> \/\$defs\/A\/allOf\/0 -> \/\$defs\/B -> \/\$defs\/B\/anyOf\/0 -> \/\$defs\/A\)/,
    );
  });

  it('a schema whose inlining would explode (2^20 paths) falls back to the checked original', () => {
    const $defs: Record<string, unknown> = { D20: { type: 'string' } };
    for (let i = 0; i < 20; i++)
      $defs[`D${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/D${i + 1}` }, b: { $ref: `#/$defs/D${i + 1}` } } };
    const schema = { type: 'object', $defs, properties: { top: { $ref: '#/$defs/D0' } } };
    const p = ok(prepareToolSchema(schema));
    assert.deepEqual(p.schema, schema); // refs kept, $defs at the root
    assertRefsResolveInside(p.schema);
    let v: unknown = 'leaf';
    for (let i = 0; i < 20; i++) v = { a: v };
    assert.deepEqual(validateToolArguments(schema, { top: v }), { ok: true });
  });

  it('a local ref that does not resolve is an error naming it', () => {
    const p = prepareToolSchema({ type: 'object', properties: { x: { $ref: '#/$defs/Missing' } } });
    assert.ok(!p.ok);
    assert.equal(p.error, '$ref "#/$defs/Missing" at /properties/x does not resolve inside this schema');
  });

  it('an unsupported $schema dialect is an error; a non-object root too', () => {
    const p = prepareToolSchema({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' });
    assert.ok(!p.ok);
    assert.match(p.error, /unsupported "\$schema" dialect "http:\/\/json-schema.org\/draft-04\/schema#"/);
    const q = prepareToolSchema({ type: 'array' });
    assert.ok(!q.ok);
    assert.match(q.error, /must describe an object/);
  });

  it('a schema that ajv finds invalid is a schema error, not a throw', () => {
    const r = validateToolArguments({ type: 'object', properties: { a: { type: 'strng' } } }, { a: 'x' });
    assert.ok(!r.ok && r.schemaError);
    assert.match(r.message, /cannot be compiled/);
  });
});

describe('validateToolArguments', () => {
  it('compiles lazily and once per schema, also for new but equal schema objects', () => {
    const proto = Ajv2020.prototype as unknown as { compile: (...a: unknown[]) => unknown };
    const original = proto.compile;
    let compiles = 0;
    proto.compile = function (this: unknown, ...args: unknown[]) {
      compiles++;
      return original.apply(this, args);
    };
    try {
      const fresh = () => ({ type: 'object', properties: { compile_probe: { type: 'integer' } } });
      const p = ok(prepareToolSchema(fresh()));
      assert.equal(compiles, 0); // preparing does not compile
      for (let i = 0; i < 4; i++) assert.deepEqual(validateToolArguments(i % 2 ? p.original : fresh(), { compile_probe: 1 }), { ok: true });
      assert.equal(compiles, 1);
    } finally {
      delete (proto as { compile?: unknown }).compile;
    }
  });

  it('draft-07 via $schema, with definitions', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { Id: { type: 'integer', minimum: 1 } },
      properties: { id: { $ref: '#/definitions/Id' } },
      required: ['id'],
    };
    assert.deepEqual(validateToolArguments(schema, { id: 3 }), { ok: true });
    const r = validateToolArguments(schema, { id: 0 });
    assert.ok(!r.ok);
    assert.equal(r.message, 'id: must be 1 or more');
    const p = ok(prepareToolSchema(schema));
    assert.deepEqual([fieldOf(p, 'id').kind, (fieldOf(p, 'id') as { minimum?: number }).minimum], ['integer', 1]);
  });

  it('2019-09 via $schema', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      type: 'object',
      properties: { a: { type: 'string' } },
      unevaluatedProperties: false,
    };
    const r = validateToolArguments(schema, { a: 'x', b: 1 });
    assert.ok(!r.ok);
    assert.equal(r.message, 'b: is not an allowed property');
  });

  it('refs by $anchor and by an embedded $id resolve locally', () => {
    const schema = {
      $id: 'https://tools.example.test/args.json',
      type: 'object',
      $defs: { Name: { $anchor: 'name', type: 'string', minLength: 2 }, Sub: { $id: 'sub.json', type: 'integer' } },
      properties: { n: { $ref: '#name' }, s: { $ref: 'sub.json' }, t: { $ref: 'https://tools.example.test/args.json#/$defs/Name' } },
    };
    assert.ok(prepareToolSchema(schema).ok);
    assert.deepEqual(validateToolArguments(schema, { n: 'ab', s: 1, t: 'cd' }), { ok: true });
    const r = validateToolArguments(schema, { n: 'a', s: 'x', t: 'e' });
    assert.ok(!r.ok);
    assert.equal(r.message, 'n: must be at least 2 characters; s: must be a whole number; t: must be at least 2 characters');
  });

  it('schemas sharing an $id do not clash or see each other', () => {
    const a = { $id: 'urn:example:same', type: 'object', properties: { v: { type: 'string' } } };
    const b = { $id: 'urn:example:same', type: 'object', properties: { v: { type: 'integer' } } };
    assert.deepEqual(validateToolArguments(a, { v: 'x' }), { ok: true });
    assert.deepEqual(validateToolArguments(b, { v: 1 }), { ok: true });
    assert.ok(!validateToolArguments(b, { v: 'x' }).ok);
    // A ref to an id that only another schema defines is still "outside this schema".
    const c = { type: 'object', properties: { v: { $ref: 'urn:example:same' } } };
    assert.ok(!validateToolArguments(c, { v: 'x' }).ok);
  });

  it('anyOf/oneOf branch errors are reported as alternatives, not as demands', () => {
    const schema = {
      type: 'object',
      properties: {
        maybe: { anyOf: [{ type: 'string', format: 'email' }, { type: 'null' }] },
        one: { oneOf: [{ type: 'integer' }, { minimum: 0 }] },
      },
    };
    const r = validateToolArguments(schema, { maybe: 'bad', one: 3 });
    assert.ok(!r.ok);
    assert.deepEqual(
      r.errors.map((e) => `${e.path}: ${e.message}`),
      [
        'maybe: must match one of the allowed shapes: must be an email address, or must be null',
        'one: matches more than one of the allowed shapes (exactly one is allowed)',
      ],
    );
  });

  it('paths: array indexes and odd keys; root errors', () => {
    const schema = { type: 'object', properties: { 'a b': { type: 'array', items: { type: 'integer' } } }, additionalProperties: false };
    const r = validateToolArguments(schema, { 'a b': [1, 'x'], extra: 1 });
    assert.ok(!r.ok);
    assert.equal(r.message, 'extra: is not an allowed property; ["a b"][1]: must be a whole number');
    const root = validateToolArguments(schema, 'nope');
    assert.ok(!root.ok);
    assert.equal(root.message, '(arguments): must be an object');
  });
});

describe('prepareToolSchema: form fields vs JSON fields', () => {
  const schema = {
    type: 'object',
    $defs: {
      Color: { type: 'string', enum: ['red', 'blue'], title: 'Colour' },
      Point: { type: 'object', properties: { x: { type: 'number' } } },
    },
    properties: {
      name: { type: 'string', description: 'Who' },
      color: { $ref: '#/$defs/Color', description: 'Pick one' },
      maybe: { anyOf: [{ type: 'string', format: 'email' }, { type: 'null' }], title: 'Email (optional)' },
      count: { type: ['integer', 'null'], minimum: 0 },
      legacy: { allOf: [{ $ref: '#/$defs/Color' }], default: 'blue' },
      sizes: { type: 'array', items: { type: 'integer', enum: [1, 2, 3] } },
      palette: { type: 'array', items: { $ref: '#/$defs/Color' } },
      point: { $ref: '#/$defs/Point' },
      points: { type: 'array', items: { $ref: '#/$defs/Point' } },
      union: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      anything: {},
      flag: true,
    },
    required: ['name', 'point', 'undescribed'],
  };
  const p = ok(prepareToolSchema(schema, { name: 'Ada', point: '{"x": 1', union: 5 }));

  it('splits fields by what a form can express', () => {
    assert.deepEqual(
      p.fields.map((f) => [f.key, f.kind]),
      [
        ['name', 'text'],
        ['color', 'select'],
        ['maybe', 'email'],
        ['count', 'integer'],
        ['legacy', 'select'],
        ['sizes', 'multiselect'],
        ['palette', 'multiselect'],
        ['point', 'json'],
        ['points', 'json'],
        ['union', 'json'],
        ['anything', 'json'],
        ['flag', 'json'],
        ['undescribed', 'json'],
      ],
    );
  });

  it('$ref / allOf / nullable wrappers are looked through, keeping annotations', () => {
    const color = fieldOf(p, 'color');
    assert.deepEqual([color.label, color.description], ['Colour', 'Pick one']);
    assert.deepEqual(color.kind === 'select' && color.options, [
      { value: 'red', label: 'red' },
      { value: 'blue', label: 'blue' },
    ]);
    assert.deepEqual(
      [fieldOf(p, 'maybe').label, fieldOf(p, 'legacy').initial, (fieldOf(p, 'count') as { minimum?: number }).minimum],
      ['Email (optional)', 'blue', 0],
    );
  });

  it('JSON fields: schema, reason, pre-fill from the previous text (kept even when not valid JSON)', () => {
    const point = fieldOf(p, 'point') as JsonField;
    assert.deepEqual([point.required, point.initial, point.initialSource], [true, '{"x": 1', 'previous']);
    assert.deepEqual(point.schema, { type: 'object', properties: { x: { type: 'number' } } });
    assert.equal((fieldOf(p, 'union') as JsonField).initial, '5');
    assert.match((fieldOf(p, 'undescribed') as JsonField).reason, /does not describe it/);
    assert.equal(fieldOf(p, 'name').initial, 'Ada');
  });

  it('a JSON field starts from its default, pretty-printed', () => {
    const q = ok(prepareToolSchema({ type: 'object', properties: { opts: { type: 'object', default: { deep: true } } } }));
    assert.equal((fieldOf(q, 'opts') as JsonField).initial, '{\n  "deep": true\n}');
  });

  it('coerceToolArguments: typed form values, parsed JSON, per-field parse errors, empty optional omitted', () => {
    const { args, errors } = coerceToolArguments(p, {
      name: 'Ada',
      color: 'red',
      count: '2.5',
      sizes: ['3', '1'],
      palette: ['blue'],
      point: '{"x": 1',
      points: '[{"x":2}]',
      union: '',
      anything: 'null',
    });
    assert.deepEqual(args, { name: 'Ada', color: 'red', sizes: [3, 1], palette: ['blue'], points: [{ x: 2 }], anything: null });
    assert.equal(errors.count, 'Must be a whole number of 0 or more');
    assert.match(errors.point, /^Not valid JSON: /);
    assert.equal(errors.undescribed, 'Required');
    assert.deepEqual(Object.keys(errors), ['count', 'point', 'undescribed']);
  });

  it('buildToolArguments validates the coerced arguments against the original schema', () => {
    const good = buildToolArguments(p, { name: 'Ada', point: '{"x": 1}', undescribed: '"ok"', maybe: 'a@example.com' });
    assert.deepEqual(good, { ok: true, args: { name: 'Ada', maybe: 'a@example.com', point: { x: 1 }, undescribed: 'ok' } });
    const bad = buildToolArguments(p, { name: 'Ada', point: '{"x": "one"}', undescribed: '1' });
    assert.deepEqual(bad, { ok: false, errors: { point: 'x: must be a number' }, message: 'point.x: must be a number' });
  });

  it('a root $ref takes the properties from its target', () => {
    const q = ok(
      prepareToolSchema({
        $ref: '#/$defs/Args',
        $defs: { Args: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
      }),
    );
    assert.deepEqual(
      q.fields.map((f) => [f.key, f.kind, f.required]),
      [['q', 'text', true]],
    );
    assert.deepEqual(q.schema, { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
  });

  it('a $ref with constraining siblings is inlined as allOf, keeping both', () => {
    const q = ok(
      prepareToolSchema({ type: 'object', $defs: { S: { type: 'string' } }, properties: { s: { $ref: '#/$defs/S', minLength: 3 } } }),
    );
    assert.deepEqual((q.schema.properties as Record<string, unknown>).s, { minLength: 3, allOf: [{ type: 'string' }] });
  });

  it('arguments described only as a whole become one JSON field that must hold an object', () => {
    const q = ok(prepareToolSchema({ type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }] }));
    assert.equal(q.wholeArguments, true);
    assert.deepEqual(
      q.fields.map((f) => [f.key, f.kind]),
      [[WHOLE_ARGUMENTS_KEY, 'json']],
    );
    assert.deepEqual(buildToolArguments(q, { [WHOLE_ARGUMENTS_KEY]: '{"b": 1}' }), { ok: true, args: { b: 1 } });
    assert.deepEqual(coerceToolArguments(q, { [WHOLE_ARGUMENTS_KEY]: '[1]' }).errors, { [WHOLE_ARGUMENTS_KEY]: 'Must be a JSON object' });
    assert.deepEqual(buildToolArguments(q, { [WHOLE_ARGUMENTS_KEY]: '{"c": 1}' }), {
      ok: false,
      errors: { [WHOLE_ARGUMENTS_KEY]: 'Must match one of the allowed shapes: a is required, or b is required' },
      message: '(arguments): must match one of the allowed shapes: a is required, or b is required',
    });
  });
});
