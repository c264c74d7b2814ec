/** Configuration files bounded before they are parsed (src/core/util/jsonc.ts), and the two files read through it. */
import assert from 'node:assert/strict';
import { MAX_CONFIG_DEPTH, nestsDeeper, parseConfigJsonc } from '../../../src/core/util/jsonc';
import { parseServerFile } from '../../../src/core/config/servers';
import { parseSavedCalls, withSavedCall } from '../../../src/core/history/savedCalls';

/** A file a cloned repository may hold: a server, and `levels` nested arrays beside it. */
const deep = (levels: number) => `{"servers": {"demo": {"command": "node"}}, "notes": ${'['.repeat(levels)}${']'.repeat(levels)}}`;

describe('configuration files: depth and parse faults', () => {
  it('counts nesting outside strings and comments only', () => {
    assert.equal(nestsDeeper('{"a": [[1]]}', 3), false);
    assert.equal(nestsDeeper('{"a": [[[1]]]}', 3), true);
    assert.equal(nestsDeeper(`{"a": "${'['.repeat(50)}", "b": "\\"[[[["}`, 1), false);
    assert.equal(nestsDeeper(`// ${'{'.repeat(50)}\n/* ${'['.repeat(50)} */ {}`, 1), false);
  });

  it('a file nested a million levels deep is one problem naming it, not a throw out of the reload', () => {
    const text = deep(1_000_000);
    const parsed = parseServerFile(text, { kind: 'workspaceFile', location: '/repo/.vscode/mcp.json' });
    assert.deepEqual(parsed.servers, []);
    assert.deepEqual(parsed.errors, [`/repo/.vscode/mcp.json: nested deeper than ${MAX_CONFIG_DEPTH} levels; not read`]);
    const calls = parseSavedCalls(
      `{"calls": {"x": {"server": "demo", "arguments": ${'['.repeat(1_000_000)}}}}`,
      '/repo/.vscode/mcp-calls.json',
    );
    assert.deepEqual(calls, {
      calls: [],
      errors: [`/repo/.vscode/mcp-calls.json: nested deeper than ${MAX_CONFIG_DEPTH} levels; not read`],
    });
    assert.throws(() => withSavedCall(text, 'x', {}), /not a valid saved-calls file/);
  });

  it('a file at the depth limit still loads', () => {
    const parsed = parseServerFile(deep(MAX_CONFIG_DEPTH - 1), { kind: 'workspaceFile', location: 'mcp.json' });
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(
      parsed.servers.map((s) => s.name),
      ['demo'],
    );
  });

  it('invalid JSON names its line', () => {
    assert.deepEqual(parseConfigJsonc('{\n  "a": 1,\n  oops\n}', 'f.json'), {
      ok: false,
      error: 'f.json: invalid JSON at line 3: InvalidSymbol',
    });
    assert.deepEqual(parseConfigJsonc('// comments are allowed\n{"a": [1,],}', 'f.json'), { ok: true, value: { a: [1] } });
  });
});
