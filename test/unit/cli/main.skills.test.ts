/**
 * `mcp-roundtrip skills` and `skill <name|uri> [--file <ref>]` (SEP-2640) against the fixture skills
 * server (test/fixtures/skillsServer.mjs): the listing, the verified content on stdout, and a
 * tampered skill refused with exit 1 naming its reason.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parseCli } from '../../../src/cli/args';
import { runCli } from '../../../src/cli/main';

const SERVER = join(__dirname, '..', '..', 'fixtures', 'skillsServer.mjs');

async function cli(mode: string, args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await runCli(['--stdio', `"${process.execPath}" "${SERVER}" ${mode}`, '--name', 'fixture', ...args], {
    stdout,
    stderr,
    stdinIsTTY: false,
  });
  return { code, out, err };
}

describe('CLI: skills', function () {
  this.timeout(30_000);

  it('parses skills and skill <name|uri> [--file <ref>], and refuses --file elsewhere', () => {
    const base = ['--stdio', 'node s.js'];
    assert.deepEqual(parseCli([...base, 'skills']).command, { kind: 'skills' });
    assert.deepEqual(parseCli([...base, 'skill', 'refunds', '--file', 'a/b.md']).command, {
      kind: 'skill',
      ref: 'refunds',
      file: 'a/b.md',
    });
    assert.throws(() => parseCli([...base, 'skill']), /skill needs a skill name or its SKILL.md URI/);
    assert.throws(() => parseCli([...base, 'tools', '--file', 'x']), /--file applies to skill only/);
    assert.throws(() => parseCli([...base, 'skills', 'x']), /skills takes no argument/);
  });

  it('skills lists name, uri, files and bytes, one skill a line', async () => {
    const r = await cli('honest', ['skills']);
    assert.equal(r.code, 0, r.err);
    assert.equal(
      r.out,
      'pdf-processing\tskill://pdf-processing/SKILL.md\t2 files\t216 bytes\nrefunds\tskill://refunds/SKILL.md\t1 file\t96 bytes\n',
    );
  });

  it('skills says why an over-limit skill is not loaded', async () => {
    const r = await cli('over-limit', ['skills']);
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /^huge\tskill:\/\/huge\/SKILL.md\t513 files\t\d+ bytes \(not loaded: it lists 513 files; the host loads at most 512\)\n$/,
    );
  });

  it('skill prints the verified SKILL.md exactly, and --file a listed file of it', async () => {
    const r = await cli('honest', ['skill', 'pdf-processing']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^---\nname: pdf-processing\n[\s\S]*# PDF processing\n/);
    const f = await cli('honest', ['skill', 'skill://pdf-processing/SKILL.md', '--file', 'references/FORMS.md']);
    assert.equal(f.code, 0, f.err);
    assert.equal(f.out, '# Forms\n\nUse the field names as printed.\n');
  });

  it('a tampered skill is exit 1, nothing on stdout, the reason on stderr', async () => {
    const r = await cli('tampered-digest', ['skill', 'pdf-processing']);
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
    assert.match(
      r.err,
      /The skill pdf-processing of fixture was refused: skill:\/\/pdf-processing\/SKILL.md failed verification \(digest\)/,
    );
  });

  it('an unknown skill is a usage error naming the skills served', async () => {
    const r = await cli('honest', ['skill', 'nope']);
    assert.equal(r.code, 2);
    assert.match(r.err, /fixture serves no skill named nope \(it serves: pdf-processing, refunds\)/);
  });

  it('an unknown skill URI and a --file that names nothing are usage errors (exit 2) saying what to give', async () => {
    const r = await cli('honest', ['skill', 'skill://nope/SKILL.md']);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /fixture serves no skill at skill:\/\/nope\/SKILL.md/);
    const f = await cli('honest', ['skill', 'pdf-processing', '--file', 'http://[']);
    assert.equal(f.code, 2, f.err);
    assert.match(f.err, /"http:\/\/\[" names no file of the skill pdf-processing of fixture: give a path inside the skill/);
  });
});
