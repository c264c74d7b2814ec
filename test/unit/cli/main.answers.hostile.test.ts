/**
 * Scripted answers (--answers) against a hostile server: a request the server got wrong is its
 * fault, never the answers file's; and URL consent has the same rule as everywhere else (only an
 * http or https URL can be accepted).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INTERNAL_ERROR_TEXT, hostileStdio, runHostCli } from '../../support/hostile';

const dir = mkdtempSync(join(tmpdir(), 'mcp-rt-answers-hostile-'));
const answersFile = (name: string, value: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(value));
  return p;
};
const call = (mode: string, arg: string, answers: unknown) =>
  runHostCli([
    '--stdio',
    hostileStdio(mode, arg),
    '--era',
    'modern',
    'call',
    't',
    '--answers',
    answersFile(`${mode}-${arg.replace(/\W/g, '')}.json`, answers),
  ]);

describe('CLI --answers: a hostile server', function () {
  this.timeout(60_000);

  for (const [kind, fault] of [
    [
      'wide',
      /stdioServer asked "f" with a form the host cannot show \(requestedSchema has 100000 properties; a form has at most 200\); it can only be declined or cancelled/,
    ],
    ['ref', /stdioServer asked "f" with a form the host cannot show \(Field "a": uses \$ref/],
    ['deep', /stdioServer asked "f" with a form the host cannot show \(Field "a": nested objects are not supported/],
    [
      'deeper',
      /stdioServer sent an answer to tools\/call t that the host cannot read: it is nested deeper than 64 levels \(MAX_JSON_DEPTH\)/,
    ],
  ] as const) {
    it(`a requestedSchema the server got wrong (${kind}) is the server's fault (exit 1), not the answers file's (exit 2)`, async () => {
      const r = await call('bad-form', kind, { f: { action: 'accept', content: { a: 'x' } } });
      assert.equal(r.code, 1, r.err);
      assert.match(r.err, fault);
      assert.doesNotMatch(r.err, /--answers "f" does not fit/);
      assert.doesNotMatch(r.err, INTERNAL_ERROR_TEXT);
    });
  }

  it('such a form can still be declined from the file', async () => {
    const r = await call('bad-form', 'ref', { f: { action: 'decline' } });
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'answered\n');
  });

  for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<b>x</b>', 'vscode://settings/x']) {
    it(`a scripted accept of ${url.split(':')[0]}: is refused (exit 2) and never sent as consent`, async () => {
      const r = await call('url', url, { u: { action: 'accept' } });
      assert.equal(r.code, 2, r.err);
      assert.match(
        r.err,
        /--answers "u" does not fit the elicitation\/create request of stdioServer: only an http or https URL can be accepted/,
      );
      assert.doesNotMatch(r.err, /→ .*retry/, 'no retry carried the accept');
    });
  }

  it('a scripted accept of an https URL is sent', async () => {
    const r = await call('url', 'https://example.test/connect', { u: { action: 'accept' } });
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'got {"action":"accept"}\n');
  });
});
