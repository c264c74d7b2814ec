/**
 * The README's exit-code table, code by code, on both paths: a 2026-07-28 server (the demo, whose
 * rounds are MRTR) and a 2025-era one (`@modelcontextprotocol/server-everything`, which pushes its
 * requests), plus the sign-in fixture spoken to in each era.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT } from '../../../src/cli/exitCodes';
import { runHostCli } from '../../support/hostile';
import { DIST, ROOT, ensureBuilt } from '../../support/build';
import { startOAuthFixture, type OAuthFixture } from '../../support/oauthFixture';

const DEMO = `"${process.execPath}" "${join(DIST, 'demo-server.js')}"`;
const EVERYTHING = `"${process.execPath}" "${join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')}"`;
const dir = mkdtempSync(join(tmpdir(), 'mcp-rt-exit-'));
const answers = (name: string, value: unknown) => {
  const f = join(dir, name);
  writeFileSync(f, JSON.stringify(value));
  return f;
};

/** One row of the table on one path: the command line, its code, and what stderr says. */
interface Row {
  code: number;
  args: string[];
  says?: RegExp;
  cancelWhen?: RegExp;
}

const MODERN: Record<string, Row> = {
  success: { code: EXIT.ok, args: ['--stdio', DEMO, 'call', 'busy_report'] },
  'server error': { code: EXIT.error, args: ['--stdio', DEMO, 'call', 'no_such_tool'], says: /no_such_tool/ },
  'an --answers entry that does not fit': {
    code: EXIT.usage,
    args: [
      '--stdio',
      DEMO,
      'call',
      'book_table',
      '--answers',
      answers('m2.json', { booking: { action: 'accept', content: { partySize: 'lots' } } }),
    ],
    says: /--answers "booking" does not fit the elicitation\/create request/,
  },
  'missing answer': {
    code: EXIT.missingAnswer,
    args: ['--stdio', DEMO, 'call', 'plan_trip', '--roots', dir, '--answers', answers('m3.json', {})],
    says: /no answer for input "trip" \(elicitation\/create\)/,
  },
  'round limit': {
    code: EXIT.limit,
    args: [
      '--stdio',
      DEMO,
      'call',
      'ask_until_valid',
      '--max-rounds',
      '1',
      '--answers',
      answers('m4.json', { code: { action: 'accept', content: { code: 'abcdef' } } }),
    ],
    says: /after 1 round\(s\)/,
  },
  cancelled: {
    code: EXIT.cancelled,
    args: ['--stdio', DEMO, 'call', 'busy_report'],
    cancelWhen: /→ \[demo-server\] tools\/call busy_report/,
  },
};

const LEGACY: Record<string, Row> = {
  success: { code: EXIT.ok, args: ['--stdio', EVERYTHING, 'call', 'echo', '--args', '{"message":"hi"}'] },
  'server error': { code: EXIT.error, args: ['--stdio', EVERYTHING, 'call', 'no-such-tool'], says: /no-such-tool/ },
  'an --answers entry that does not fit': {
    code: EXIT.usage,
    args: [
      '--stdio',
      EVERYTHING,
      'call',
      'trigger-elicitation-request',
      '--answers',
      answers('l2.json', { '0': { action: 'accept', content: { name: 42 } } }),
    ],
    says: /--answers "0" does not fit/,
  },
  'missing answer': {
    code: EXIT.missingAnswer,
    args: ['--stdio', EVERYTHING, 'call', 'trigger-elicitation-request', '--answers', answers('l3.json', {})],
    says: /no answer for input "0" \(elicitation\/create\)/,
  },
  'time limit': {
    code: EXIT.limit,
    args: ['--stdio', EVERYTHING, '--timeout-ms', '1500', 'call', 'trigger-long-running-operation', '--args', '{"duration":10,"steps":10}'],
    says: /1500 ms/,
  },
  cancelled: {
    code: EXIT.cancelled,
    args: ['--stdio', EVERYTHING, 'call', 'trigger-long-running-operation', '--args', '{"duration":10,"steps":10}'],
    cancelWhen: /^progress 1\/10$/m,
  },
};

describe('CLI exit codes on both paths (the README table)', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());

  for (const [path, rows] of [
    ['2026-07-28 (demo server)', MODERN],
    ['2025 (server-everything)', LEGACY],
  ] as const)
    for (const [what, row] of Object.entries(rows))
      it(`${path}: ${what} is exit ${row.code}`, async () => {
        const r = await runHostCli(row.args, { cancelWhen: row.cancelWhen });
        assert.equal(r.code, row.code, r.err);
        if (row.says) assert.match(r.err, row.says);
      });

  describe('sign-in needed (5), in each era', () => {
    let fx: OAuthFixture;
    before(async () => (fx = await startOAuthFixture()));
    after(() => fx?.stop());
    for (const era of ['modern', 'legacy'])
      it(`--era ${era}: no token and stdin not a terminal is exit 5`, async () => {
        const r = await runHostCli(['--http', fx.mcpUrl, '--era', era, '--oauth-store', 'memory', 'tools']);
        assert.equal(r.code, EXIT.signInNeeded, r.err);
        assert.match(r.err, /needs a sign-in/);
      });
  });
});
