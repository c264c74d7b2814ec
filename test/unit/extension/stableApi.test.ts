/**
 * Stable VS Code API only. code-server enables every API proposal, so no test that runs there can
 * catch a proposed API: these checks can. The manifest enables no proposal; the build typechecks
 * against the pinned, plain `@types/vscode` (no proposed `.d.ts`, no augmentation of the module);
 * and no source names one of the proposals a chat or MCP feature would reach for.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** Files under `dir` (relative to the repository), skipping dependencies and build output. */
function files(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(path.join(ROOT, d), { withFileTypes: true })) {
      if (['node_modules', 'dist', 'out', '.git', '.vscode-test', 'test-results'].includes(e.name)) continue;
      const rel = path.join(d, e.name);
      if (e.isDirectory()) walk(rel);
      else if (keep(e.name)) out.push(rel);
    }
  };
  walk(dir);
  return out;
}

/** Proposed APIs (VS Code 1.139) a chat or MCP feature might reach for. */
const PROPOSED = [
  'registerToolDefinition',
  'mcpServerDefinitions',
  'McpStdioServerDefinition2',
  'McpHttpServerDefinition2',
  'mcpToolDefinitions',
  'LanguageModelToolInvocationProgress',
  'ChatResponseProgressPart2',
  'participantDetectionProvider',
  'chatParticipantPrivate',
];

describe('stable VS Code API only', function () {
  this.timeout(120_000);

  it('package.json enables no API proposal, and pins @types/vscode to the oldest VS Code it accepts', () => {
    assert.equal(pkg.enabledApiProposals, undefined);
    const types = pkg.devDependencies['@types/vscode'];
    assert.match(types, /^\d+\.\d+\.\d+$/, `@types/vscode must be pinned exactly, not "${types}"`);
    const [major, minor] = types.split('.');
    assert.equal(pkg.engines.vscode, `^${major}.${minor}.0`);
    const installed = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', '@types', 'vscode', 'package.json'), 'utf8')).version;
    assert.equal(installed, types, 'the installed @types/vscode is the pinned one');
  });

  it('no proposed .d.ts and no augmentation of the vscode module in the sources', () => {
    const all = files('.', (n) => n.endsWith('.ts'));
    assert.ok(all.length > 100, `only ${all.length} files found`);
    assert.deepEqual(
      all.filter((f) => /vscode\.proposed\./.test(path.basename(f))),
      [],
    );
    const augmenting = all.filter((f) => /declare\s+module\s+['"]vscode['"]/.test(readFileSync(path.join(ROOT, f), 'utf8')));
    assert.deepEqual(augmenting, []);
  });

  it('no source names a proposed chat or MCP API', () => {
    const sources = files('src', (n) => n.endsWith('.ts'));
    const hits = sources.flatMap((f) => {
      const text = readFileSync(path.join(ROOT, f), 'utf8');
      return PROPOSED.filter((name) => new RegExp(`\\b${name}\\b`).test(text)).map((name) => `${f}: ${name}`);
    });
    assert.deepEqual(hits, []);
  });

  it('the build typechecks against the plain @types/vscode', function () {
    // A whole tsc run: ~12 s with TypeScript 6.0 on 2 cores, over a minute on a loaded one.
    this.timeout(300_000);
    const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', ROOT, '--noEmit'], {
      encoding: 'utf8',
    });
    assert.equal(tsc.status, 0, `${tsc.stdout}${tsc.stderr}`);
  });
});
