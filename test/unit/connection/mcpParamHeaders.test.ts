// SEP-2243 (found by the official conformance suite, scenarios http-custom-headers and
// http-invalid-tool-headers): which `x-mcp-header` declarations are valid, and how argument values are
// encoded as `Mcp-Param-{Name}` headers (src/core/connection/mcpParamHeaders.ts).
// Spec: MCP 2026-07-28, Streamable HTTP "Custom Headers from Tool Parameters", "Value Encoding".
import * as assert from 'node:assert/strict';
import { buildParamHeaders, encodeHeaderValue, scanHeaderDeclarations } from '../../../src/core/connection/mcpParamHeaders';
import { INVALID_TOOLS, REGION_TOOL } from '../../fixtures/headerTools';

describe('x-mcp-header declarations (SEP-2243)', () => {
  it('collects declarations reached through properties keys, nested objects included', () => {
    const scan = scanHeaderDeclarations(REGION_TOOL.inputSchema);
    assert.ok(scan.ok);
    assert.deepEqual(
      scan.declarations.map((d) => [d.path.join('.'), d.name, d.type]),
      [
        ['region', 'Region', 'string'],
        ['priority', 'Priority', 'integer'],
        ['verbose', 'Verbose', 'boolean'],
        ['where.zone', 'Zone', 'string'],
      ],
    );
    assert.deepEqual(scanHeaderDeclarations({ type: 'object', properties: { q: { type: 'string' } } }), { ok: true, declarations: [] });
  });

  it('refuses every broken constraint, naming the property', () => {
    const bad = (prop: unknown, extra: Record<string, unknown> = {}) =>
      scanHeaderDeclarations({ type: 'object', properties: { p: prop }, ...extra });
    const cases: [ReturnType<typeof scanHeaderDeclarations>, RegExp][] = [
      [bad({ type: 'string', 'x-mcp-header': '' }), /p: x-mcp-header must be a non-empty string/],
      [bad({ type: 'string', 'x-mcp-header': 7 }), /non-empty string/],
      [bad({ type: 'string', 'x-mcp-header': 'Region:Primary' }), /not an HTTP header name token/],
      [bad({ type: 'string', 'x-mcp-header': 'Région' }), /not an HTTP header name token/],
      [bad({ type: 'string', 'x-mcp-header': 'Region\t1' }), /not an HTTP header name token/],
      [bad({ type: 'number', 'x-mcp-header': 'N' }), /string, integer or boolean properties, not "number"/],
      [bad({ type: 'array', items: { type: 'string' }, 'x-mcp-header': 'A' }), /not "array"/],
      [bad({ type: 'null', 'x-mcp-header': 'N' }), /not "null"/],
      [bad({ 'x-mcp-header': 'N' }), /not null/],
      [bad({ type: 'array', items: { type: 'string', 'x-mcp-header': 'I' } }), /reached through "properties" keys alone/],
      [bad({ anyOf: [{ type: 'string', 'x-mcp-header': 'A' }] }), /reached through "properties" keys alone/],
      [bad({ $ref: '#/$defs/r' }, { $defs: { r: { type: 'string', 'x-mcp-header': 'R' } } }), /reached through "properties" keys alone/],
      [scanHeaderDeclarations({ type: 'object', 'x-mcp-header': 'Root' }), /<root>/],
      [scanHeaderDeclarations(INVALID_TOOLS[2].inputSchema), /declared twice/],
    ];
    for (const [scan, reason] of cases) {
      assert.equal(scan.ok, false, `${reason} should be refused`);
      assert.match((scan as { reason: string }).reason, reason);
    }
  });

  it('a property named x-mcp-header, or the word inside a default, is no declaration', () => {
    const scan = scanHeaderDeclarations({
      type: 'object',
      properties: { 'x-mcp-header': { type: 'object', default: { 'x-mcp-header': 1 } } },
    });
    assert.deepEqual(scan, { ok: true, declarations: [] });
  });
});

describe('Mcp-Param header values (SEP-2243 value encoding)', () => {
  it('encodes exactly as the spec table shows', () => {
    assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
    assert.equal(encodeHeaderValue('Hello, 世界'), '=?base64?SGVsbG8sIOS4lueVjA==?=');
    assert.equal(encodeHeaderValue(' padded '), '=?base64?IHBhZGRlZCA=?=');
    assert.equal(encodeHeaderValue('line1\nline2'), '=?base64?bGluZTEKbGluZTI=?=');
    assert.equal(encodeHeaderValue('=?base64?literal?='), '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
    assert.equal(encodeHeaderValue('us west 1'), 'us west 1');
    assert.equal(encodeHeaderValue('\tindented'), '=?base64?CWluZGVudGVk?=');
    assert.equal(encodeHeaderValue(''), '');
  });

  it('mirrors present primitives, omits null and absent values and unannotated parameters', () => {
    const scan = scanHeaderDeclarations(REGION_TOOL.inputSchema);
    assert.ok(scan.ok);
    assert.deepEqual(
      buildParamHeaders(scan.declarations, { region: 'eu', priority: 42, verbose: false, where: { zone: 'b' }, sql: 'SELECT 1' }),
      {
        'Mcp-Param-Region': 'eu',
        'Mcp-Param-Priority': '42',
        'Mcp-Param-Verbose': 'false',
        'Mcp-Param-Zone': 'b',
      },
    );
    assert.deepEqual(buildParamHeaders(scan.declarations, { region: 'eu', verbose: null }), { 'Mcp-Param-Region': 'eu' });
    assert.deepEqual(buildParamHeaders(scan.declarations, { priority: 2 ** 53 }), {}, 'an unsafe integer cannot be mirrored');
  });
});
