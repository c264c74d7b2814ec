/** A stdio server given on the command line is named after its package (the nearest package.json above the script). */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageServerName } from '../../../src/cli/serverName';
import { parseCli } from '../../../src/cli/args';
import { ROOT } from '../../support/build';

const EVERYTHING = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';

describe('CLI server names', () => {
  it('node <package>/dist/index.js is named after the package, its scope dropped', () => {
    assert.equal(packageServerName('node', [EVERYTHING], ROOT), 'server-everything');
    assert.equal(parseCli(['--stdio', `node ${EVERYTHING}`, 'tools'], ROOT).server?.name, 'server-everything');
  });

  it("a package's bin or main is named after the package; another script of it keeps its own name", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-rt-name-'));
    mkdirSync(join(dir, 'lib'));
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: '@acme/weather-mcp', bin: { weather: 'lib/cli.js' }, main: 'lib/main.js' }),
    );
    for (const f of ['cli.js', 'main.js', 'tool.js']) writeFileSync(join(dir, 'lib', f), '');
    assert.equal(packageServerName('node', ['lib/cli.js'], dir), 'weather-mcp');
    assert.equal(packageServerName('/usr/bin/node', [join(dir, 'lib', 'main.js')], '/'), 'weather-mcp');
    assert.equal(packageServerName('node', ['lib/tool.js'], dir), undefined);
    assert.equal(parseCli(['--stdio', 'node lib/tool.js', 'tools'], dir).server?.name, 'tool');
  });

  it('no package.json, a script that is not there, or a command that runs no script: no package name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-rt-name-'));
    writeFileSync(join(dir, 'index.js'), '');
    assert.equal(packageServerName('node', ['index.js'], dir), undefined);
    assert.equal(packageServerName('node', ['missing.js'], dir), undefined);
    assert.equal(packageServerName('weather', ['index.js'], dir), undefined);
    assert.equal(parseCli(['--stdio', 'node missing.js', 'tools'], dir).server?.name, 'missing');
  });
});
