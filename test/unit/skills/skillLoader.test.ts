/**
 * Skills (SEP-2640) over a real stdio server built on the SDK's `SkillsExtension`
 * (test/fixtures/skillsServer.mjs): listing without a read, limits from the entry, approval bound to
 * the file set, verified loads, tampered files refused with their reason, supporting files only
 * through the active skill.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { isHostError } from '../../../src/core/util/errors';
import { fileSetKey, filesAndBytes, MAX_SKILL_BYTES, MAX_SKILL_FILES, summarize } from '../../../src/core/skills/skillEntry';
import { SkillLoader, SkillRefused, type SkillApprovalRequest } from '../../../src/core/skills/skillLoader';
import { SkillRegistry } from '../../../src/core/skills/skillRegistry';
import { DIST, ensureBuilt } from '../../support/build';
import { scriptedProvider } from '../../support/providers';

const SERVER = join(__dirname, '..', '..', 'fixtures', 'skillsServer.mjs');
const conns: ServerConnection[] = [];
afterEach(async () => {
  await Promise.all(conns.splice(0).map((c) => c.close()));
});

/** A connection to the fixture in `mode`, with the file of URIs it read. */
function skillsServer(mode: string, name = `skills-${mode}`) {
  const record = join(mkdtempSync(join(tmpdir(), 'mcp-rt-skills-')), 'reads.txt');
  const conn = new ServerConnection(
    { transport: 'stdio', name, command: process.execPath, args: [SERVER, mode], env: { RECORD_FILE: record } },
    { provider: scriptedProvider({}) },
  );
  conns.push(conn);
  return { conn, reads: () => (existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : []) };
}

/** A loader whose approver says yes and records what it was asked. */
function loader(answer = { load: true }) {
  const asked: SkillApprovalRequest[] = [];
  const registry = new SkillRegistry();
  const l = new SkillLoader(registry, async (r) => {
    asked.push(r);
    return answer;
  });
  return { registry, loader: l, asked };
}

describe('skills (SEP-2640)', function () {
  this.timeout(20_000);

  it('lists a 2026-07-28 server’s skills from their entries, reading no file', async () => {
    const s = skillsServer('honest');
    const { registry } = loader();
    const listing = await registry.list(s.conn);
    assert.equal(s.conn.era, 'modern');
    assert.equal(listing.supported, true);
    assert.deepEqual(
      listing.skills.map((k) => [k.name, k.uri, k.description, filesAndBytes(k)]),
      [
        ['pdf-processing', 'skill://pdf-processing/SKILL.md', 'Fill and extract PDF forms.', '2 files, 216 B'],
        ['refunds', 'skill://refunds/SKILL.md', 'Handle refund requests.', '1 file, 96 B'],
      ],
    );
    assert.deepEqual(s.reads(), [], 'no prefetch: listing reads no file');
  });

  it('loads a skill after approval with a verified SKILL.md, and its listed file only once active', async () => {
    const s = skillsServer('honest');
    const { loader: l, asked } = loader();
    await assert.rejects(l.readFile(s.conn, 'skill://pdf-processing/SKILL.md', 'references/FORMS.md'), (e) => isHostError(e, 'usage'));
    assert.deepEqual(s.reads(), []);
    const loaded = await l.load(s.conn, 'pdf-processing');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].why, 'first');
    assert.deepEqual(s.reads(), ['skill://pdf-processing/SKILL.md'], 'approval itself read nothing; the load read SKILL.md only');
    assert.equal(loaded.verified, true);
    assert.equal(loaded.root, 'skill://pdf-processing/');
    assert.match(loaded.body, /^# PDF processing/);
    const forms = await l.readFile(s.conn, loaded.skill.uri, 'references/FORMS.md');
    assert.equal(forms.uri, 'skill://pdf-processing/references/FORMS.md');
    assert.match(forms.text ?? '', /^# Forms/);
    await assert.rejects(l.readFile(s.conn, loaded.skill.uri, 'secrets.md'), (e) => e instanceof SkillRefused && e.reason === 'unlisted');
    // Loaded again: the same files are not asked again, and the cache answers.
    await l.load(s.conn, 'skill://pdf-processing/SKILL.md');
    assert.equal(asked.length, 1);
    assert.equal(s.reads().length, 2);
  });

  for (const reason of ['size', 'digest', 'frontmatter'] as const) {
    it(`refuses a skill whose SKILL.md fails the ${reason} check, naming it, and uses nothing`, async () => {
      const s = skillsServer(`tampered-${reason}`);
      const { loader: l } = loader();
      await assert.rejects(l.load(s.conn, 'pdf-processing'), (e) => {
        assert.ok(e instanceof SkillRefused);
        assert.equal(e.reason, reason);
        assert.equal(e.uri, 'skill://pdf-processing/SKILL.md');
        assert.match(e.message, new RegExp(`pdf-processing of skills-tampered-${reason} was refused.*\\(${reason}\\)`));
        return true;
      });
      assert.deepEqual(l.activeSkills(s.conn.name), []);
      await assert.rejects(l.readFile(s.conn, 'skill://pdf-processing/SKILL.md', 'references/FORMS.md'), (e) => isHostError(e, 'usage'));
      assert.ok(!s.reads().includes('skill://pdf-processing/references/FORMS.md'));
    });
  }

  it('after a failed check, asks skills/get once; changed files are approved again, then read', async () => {
    const s = skillsServer('stale-listing');
    const { loader: l, asked } = loader();
    const loaded = await l.load(s.conn, 'refunds');
    assert.deepEqual(
      asked.map((r) => r.why),
      ['first', 'changed'],
    );
    assert.equal(loaded.verified, true);
    assert.notEqual(fileSetKey(asked[0].skill), fileSetKey(asked[1].skill));
    assert.deepEqual(s.reads(), ['skill://refunds/SKILL.md', 'skill://refunds/SKILL.md']);
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`lists a ${era === 'modern' ? '2026-07-28' : '2025-era'} server again once it says its resources changed, and tells the host`, async () => {
      const wire: string[] = [];
      const conn = new ServerConnection(
        { transport: 'stdio', name: 'changing', command: process.execPath, args: [SERVER, 'list-changes'], era },
        {
          provider: scriptedProvider({}),
          onWire: (_server, direction, m) => {
            if (direction === 'out' && 'method' in m) wire.push(m.method);
          },
        },
      );
      conns.push(conn);
      let told: (server: string) => void = () => {};
      const changed = new Promise<string>((resolve) => (told = resolve));
      const registry = new SkillRegistry(
        (server) => told(server),
        () => 0,
      );
      assert.deepEqual(
        (await registry.list(conn)).skills.map((s) => s.name),
        ['refunds'],
      );
      // The fixture says its resources changed right after the first listing: on 2026-07-28 only on
      // the stream asked for before that listing.
      assert.equal(await changed, 'changing');
      assert.equal(conn.era, era);
      assert.deepEqual(
        wire.filter((m) => m === 'subscriptions/listen' || m === 'skills/list'),
        era === 'modern' ? ['subscriptions/listen', 'skills/list'] : ['skills/list'],
      );
      assert.deepEqual(
        (await registry.list(conn)).skills.map((s) => s.name),
        ['pdf-processing', 'refunds'],
      );
      assert.equal(wire.filter((m) => m === 'subscriptions/listen').length, era === 'modern' ? 1 : 0, 'one stream per session');
    });
  }

  it('opens no change stream on a 2026-07-28 server that serves no skills', async () => {
    ensureBuilt();
    const wire: string[] = [];
    const conn = new ServerConnection(
      { transport: 'stdio', name: 'demo', command: process.execPath, args: [join(DIST, 'demo-server.js')] },
      {
        provider: scriptedProvider({}),
        onWire: (_server, direction, m) => {
          if (direction === 'out' && 'method' in m) wire.push(m.method);
        },
      },
    );
    conns.push(conn);
    assert.equal((await new SkillRegistry().list(conn)).supported, false);
    assert.equal(conn.era, 'modern');
    assert.deepEqual(wire, ['server/discover']);
  });

  it('a listing found stale by a failed check is listed again, not kept for its ttlMs', async () => {
    const s = skillsServer('changed-after-listing');
    const { loader: l, registry, asked } = loader();
    const stale = (await registry.list(s.conn)).skills.find((k) => k.name === 'refunds')!;
    const loaded = await l.load(s.conn, 'refunds');
    assert.equal(asked.length, 2);
    const now = (await registry.list(s.conn)).skills.find((k) => k.name === 'refunds')!;
    assert.notEqual(fileSetKey(now), fileSetKey(stale));
    assert.equal(fileSetKey(now), fileSetKey(loaded.skill));
  });

  it('a name two skills of one server share is refused, naming both URIs; each loads by its URI', async () => {
    const s = skillsServer('same-name');
    const { loader: l } = loader();
    await assert.rejects(
      l.find(s.conn, 'refunds\u001b[2J'),
      (e) => isHostError(e, 'usage') && /serves no skill named refunds \[2J/.test(e.message),
    );
    await assert.rejects(
      l.find(s.conn, 'refunds'),
      (e) =>
        isHostError(e, 'usage') &&
        e.message.endsWith('serves 2 skills named refunds; name one by its URI: skill://a/refunds/SKILL.md, skill://b/refunds/SKILL.md'),
    );
    assert.equal((await l.load(s.conn, 'skill://b/refunds/SKILL.md')).root, 'skill://b/refunds/');
  });

  it('refuses an over-limit skill from its entry, before any read or approval', async () => {
    const s = skillsServer('over-limit');
    const { loader: l, asked } = loader();
    await assert.rejects(l.load(s.conn, 'huge'), (e) => isHostError(e, 'usage') && /513 files; the host loads at most 512/.test(e.message));
    assert.equal(asked.length, 0);
    assert.deepEqual(s.reads(), []);
  });

  it('loads a dynamic skill unverified, checking its frontmatter, and asks again at each load (no file set to bind to)', async () => {
    const s = skillsServer('dynamic');
    const { loader: l, registry, asked } = loader();
    const [notes] = (await registry.list(s.conn)).skills;
    assert.equal(notes.files, 'dynamic');
    assert.equal(fileSetKey(notes), 'dynamic:skill://notes/SKILL.md');
    const loaded = await l.load(s.conn, 'notes');
    assert.equal(loaded.verified, false);
    const today = await l.readFile(s.conn, notes.uri, 'today.md');
    assert.equal(today.text, '# Today\n');
    assert.equal(asked.length, 1, 'a file of the loaded skill asks nothing more');
    await l.load(s.conn, 'notes');
    assert.deepEqual(
      asked.map((r) => r.why),
      ['first', 'first'],
    );
  });

  it('a listing is kept for its ttlMs and asked again once it has passed', async () => {
    const s = skillsServer('changed-after-listing');
    const wire: string[] = [];
    const conn = new ServerConnection(s.conn.spec, {
      provider: scriptedProvider({}),
      onWire: (_server, direction, m) => {
        if (direction === 'out' && 'method' in m) wire.push(m.method);
      },
    });
    conns.push(conn);
    let now = 1_000;
    const registry = new SkillRegistry(undefined, () => now);
    const first = (await registry.list(conn)).skills.find((k) => k.name === 'refunds')!;
    now += 59_999;
    assert.equal(
      (await registry.list(conn)).skills.find((k) => k.name === 'refunds'),
      first,
      'fresh for 60 s: not asked again',
    );
    assert.equal(wire.filter((m) => m === 'skills/list').length, 1);
    now += 1;
    const later = (await registry.list(conn)).skills.find((k) => k.name === 'refunds')!;
    assert.equal(wire.filter((m) => m === 'skills/list').length, 2);
    assert.notEqual(fileSetKey(later), fileSetKey(first), 'the second listing is the server’s current one');
  });

  it('accepts up to 512 files and 16 MiB from the entry, and names the limit one past either', () => {
    const entry = (sizes: number[]) => ({
      uri: 'skill://big/SKILL.md',
      frontmatter: { name: 'big', description: 'Big.' },
      resources: sizes.map((size, i) => ({
        uri: i ? `skill://big/f${i}.md` : 'skill://big/SKILL.md',
        digest: `sha256:${'0'.repeat(64)}`,
        size,
      })),
    });
    assert.equal(summarize('s', entry(Array<number>(MAX_SKILL_FILES).fill(1))).refused, undefined);
    assert.equal(summarize('s', entry([MAX_SKILL_BYTES - 1, 1])).refused, undefined);
    assert.equal(
      summarize('s', entry(Array<number>(MAX_SKILL_FILES + 1).fill(1))).refused,
      'it lists 513 files; the host loads at most 512',
    );
    assert.equal(
      summarize('s', entry([MAX_SKILL_BYTES, 1])).refused,
      'its files hold 16777217 bytes; the host loads at most 16777216 (16 MiB)',
    );
  });

  it('a declined approval loads nothing', async () => {
    const s = skillsServer('honest');
    const { loader: l } = loader({ load: false });
    await assert.rejects(l.load(s.conn, 'refunds'), (e) => isHostError(e, 'declined'));
    assert.deepEqual(s.reads(), []);
  });

  it('keeps two servers’ skills of the same name apart (identity is server and URI)', async () => {
    const a = skillsServer('honest', 'one');
    const b = skillsServer('honest', 'two');
    const { loader: l, asked } = loader();
    await l.load(a.conn, 'refunds');
    await l.load(b.conn, 'refunds');
    assert.deepEqual(
      asked.map((r) => r.skill.server),
      ['one', 'two'],
    );
    assert.deepEqual(
      l.activeSkills('two').map((k) => k.uri),
      ['skill://refunds/SKILL.md'],
    );
    assert.deepEqual(b.reads(), ['skill://refunds/SKILL.md']);
  });

  it('confirms a URI from elsewhere with skills/get, and names an unknown skill', async () => {
    const s = skillsServer('honest');
    const { loader: l, registry } = loader();
    const got = await registry.get(s.conn, 'skill://refunds/SKILL.md');
    assert.equal(got.name, 'refunds');
    await assert.rejects(
      l.find(s.conn, 'nope'),
      (e) => isHostError(e, 'usage') && /serves no skill named nope \(it serves: pdf-processing, refunds\)/.test(e.message),
    );
    await assert.rejects(registry.get(s.conn, 'skill://nope/SKILL.md'), (e) => isHostError(e, 'server'));
  });
});
