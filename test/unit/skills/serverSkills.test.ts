/**
 * Skills in VS Code (src/vscode/skills/serverSkills.ts) under the `vscode` stand-in, against the
 * fixture skills server: the Servers view's skill nodes, Enable / Disable, the approval modal that
 * alone lets a skill load, and Inspect Skill reading verified without approval or activation.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { isHostError } from '../../../src/core/util/errors';
import { approvalText, declinedLine, LOAD_SKILL, LOAD_SKILL_ALLOW_TOOLS } from '../../../src/core/skills/skillText';
import { summarize } from '../../../src/core/skills/skillEntry';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';
import { scriptedProvider } from '../../support/providers';
import { useVscodeStub } from '../../support/vscodeStub';
import { memento } from '../../support/memento';

const SERVER = join(__dirname, '..', '..', 'fixtures', 'skillsServer.mjs');

type Vscode = typeof import('vscode');
type Module = typeof import('../../../src/vscode/skills/serverSkills');

describe('skills in VS Code', function () {
  this.timeout(20_000);
  useVscodeStub();
  let vscode: Vscode;
  let mod: Module;
  before(() => {
    vscode = require('vscode') as Vscode;
    mod = require('../../../src/vscode/skills/serverSkills') as Module;
    originalWarning = (vscode.window as unknown as Record<string, unknown>).showWarningMessage;
  });
  let originalWarning: unknown;
  after(() => ((vscode.window as unknown as Record<string, unknown>).showWarningMessage = originalWarning));
  const conns: ServerConnection[] = [];
  afterEach(async () => {
    await Promise.all(conns.splice(0).map((c) => c.close()));
  });
  const connect = (mode: string) => {
    const conn = new ServerConnection(
      { transport: 'stdio', name: 'fixture', command: process.execPath, args: [SERVER, mode] },
      { provider: scriptedProvider({}) },
    );
    conns.push(conn);
    return conn;
  };
  const entry = { name: 'fixture' } as ServerEntry;

  it('lists each skill under its server with description, files and bytes, and Enable / Disable changes its item', async () => {
    const skills = new mod.ServerSkills(memento() as never);
    const conn = connect('honest');
    await conn.ensureConnected();
    const nodes = await skills.nodes(conn, entry);
    assert.deepEqual(
      nodes.map((n) => [n.skill.name, skills.treeItem(n).description, skills.treeItem(n).contextValue]),
      [
        ['pdf-processing', 'Fill and extract PDF forms. · 2 files, 216 B', 'mcpRoundtrip.skill.enabled'],
        ['refunds', 'Handle refund requests. · 1 file, 96 B', 'mcpRoundtrip.skill.enabled'],
      ],
    );
    await skills.setEnabled(nodes[1].skill, false);
    assert.equal(skills.treeItem(nodes[1]).contextValue, 'mcpRoundtrip.skill.disabled');
    assert.match(String(skills.treeItem(nodes[1]).description), / · disabled$/);
    assert.equal(skills.isEnabled(nodes[0].skill), true);
    await skills.setEnabled(nodes[1].skill, true);
    assert.equal(skills.treeItem(nodes[1]).contextValue, 'mcpRoundtrip.skill.enabled');
  });

  it('lists an entry the SDK refuses as invalid as declined, with its URI and reason, never as a skill', async () => {
    const skills = new mod.ServerSkills(memento() as never);
    const conn = connect('invalid-entry');
    const { nodes, declined } = await skills.listed(conn, entry);
    assert.deepEqual(
      nodes.map((n) => n.skill.name),
      ['refunds'],
    );
    assert.deepEqual(declined.map(declinedLine), [
      'declined skill entry skill://broken/SKILL.md: resource "skill://elsewhere/x.md" is outside the skill directory skill://broken',
    ]);
  });

  it('loads a skill only after the modal approval names it, its server and files; dismissing loads nothing', async () => {
    const asked: { message: string; options: { modal?: boolean; detail?: string }; buttons: string[] }[] = [];
    let answer: string | undefined;
    (vscode.window as unknown as Record<string, unknown>).showWarningMessage = async (
      message: string,
      options: { modal?: boolean; detail?: string },
      ...buttons: string[]
    ) => {
      asked.push({ message, options, buttons });
      return answer;
    };
    const skills = new mod.ServerSkills(memento() as never);
    const conn = connect('honest');
    await assert.rejects(skills.loader.load(conn, 'refunds'), (e) => isHostError(e, 'declined'));
    assert.deepEqual(skills.loader.activeSkills('fixture'), []);
    answer = LOAD_SKILL;
    const loaded = await skills.loader.load(conn, 'pdf-processing');
    assert.equal(loaded.verified, true);
    assert.equal(asked.length, 2);
    assert.equal(asked[1].message, 'Load the skill "pdf-processing" from the MCP server "fixture"?');
    assert.equal(asked[1].options.modal, true);
    assert.match(asked[1].options.detail ?? '', /skill:\/\/pdf-processing\/references\/FORMS.md \(\d+ B\)/);
    assert.deepEqual(asked[1].buttons, [LOAD_SKILL]);
  });

  it('the approval asks separately for allowed-tools, never granting them with Load Skill', () => {
    const skill = summarize('srv', {
      uri: 'skill://x/SKILL.md',
      frontmatter: { name: 'x', description: 'd', 'allowed-tools': 'Bash(git:*) Read' },
      resources: [{ uri: 'skill://x/SKILL.md', digest: `sha256:${'a'.repeat(64)}`, size: 10 }],
    });
    const t = approvalText({ skill, why: 'changed' });
    assert.deepEqual(t.buttons, [LOAD_SKILL, LOAD_SKILL_ALLOW_TOOLS]);
    assert.match(t.detail, /^Its files changed since you approved it\./);
    assert.match(t.detail, /It asks to use these tools without asking: Bash\(git:\*\) Read\./);
  });

  it('Inspect Skill after the view listed the server: a tampered digest is refused, shown as an error', async () => {
    const skills = new mod.ServerSkills(memento() as never);
    const conn = connect('tampered-digest');
    await conn.ensureConnected();
    const nodes = await skills.nodes(conn, entry);
    const pdf = nodes.find((n) => n.skill.name === 'pdf-processing');
    assert.ok(pdf);
    const shown: string[] = [];
    const w = vscode.window as unknown as Record<string, unknown>;
    const original = w.showErrorMessage;
    w.showErrorMessage = (m: string) => (shown.push(m), Promise.resolve(undefined));
    try {
      assert.equal(await skills.inspect(conn, pdf.skill), undefined);
    } finally {
      w.showErrorMessage = original;
    }
    assert.match(
      shown.join('\n'),
      /The skill pdf-processing of fixture was refused: skill:\/\/pdf-processing\/SKILL\.md failed verification \(digest\)/,
    );
  });

  it('Inspect Skill reads SKILL.md verified without approval and without making it active; a tampered one is refused', async () => {
    const skills = new mod.ServerSkills(memento() as never);
    const honest = connect('honest');
    const seen = await skills.loader.inspect(honest, 'refunds');
    assert.match(seen.text, /^---\nname: refunds/);
    assert.deepEqual(skills.loader.activeSkills('fixture'), []);
    const tampered = connect('tampered-frontmatter');
    await assert.rejects(skills.loader.inspect(tampered, 'pdf-processing'), /failed verification \(frontmatter\)/);
  });
  it('Inspect Skill run without a row (Command Palette, keyboard) asks which skill of the connected servers, then inspects it', async () => {
    const handlers = new Map<string, (...args: unknown[]) => unknown>();
    const commands = vscode.commands as unknown as Record<string, unknown>;
    const w = vscode.window as unknown as Record<string, unknown>;
    const [originalRegister, originalError, originalInfo] = [commands.registerCommand, w.showErrorMessage, w.showInformationMessage];
    commands.registerCommand = (id: string, f: (...args: unknown[]) => unknown) => (handlers.set(id, f), { dispose: () => {} });
    const shown: string[] = [];
    w.showErrorMessage = (m: string) => (shown.push(m), Promise.resolve(undefined));
    w.showInformationMessage = (m: string) => (shown.push(m), Promise.resolve(undefined));
    const picks = (vscode as unknown as { __quickPicks: { items: { label: string; description: string }[]; answer(i: unknown): void }[] })
      .__quickPicks;
    try {
      const tampered = connect('tampered-digest');
      const idle = { name: 'idle', heldBack: undefined } as ServerEntry;
      const fixture = { name: 'fixture', connection: tampered } as ServerEntry;
      const entries = [idle, fixture];
      const { registerSkills } =
        require('../../../src/vscode/skills/skillCommands') as typeof import('../../../src/vscode/skills/skillCommands');
      registerSkills({ subscriptions: [] } as never, memento(), {
        list: () => entries,
        connection: async (e: ServerEntry) => e.connection ?? assert.fail(`${e.name} must not be connected for the pick`),
      } as never);
      const inspect = handlers.get('mcpRoundtrip.skill.inspect');
      assert.ok(inspect);
      // No server connected yet: nothing to pick, and the person is told what to do.
      entries.splice(1, 1);
      await inspect(undefined);
      assert.match(shown.join('\n'), /no connected server lists a skill\. Expand a server in the Servers view to connect to it\./);
      entries.push(fixture);
      await tampered.ensureConnected();
      const before = picks.length;
      const done = inspect(undefined);
      while (picks.length === before) await new Promise((r) => setImmediate(r));
      const pick = picks[picks.length - 1];
      assert.deepEqual(
        pick.items.map((i) => [i.label, i.description]),
        [
          ['pdf-processing', 'fixture'],
          ['refunds', 'fixture'],
        ],
      );
      pick.answer(pick.items[0]);
      assert.equal(await done, undefined);
      assert.match(
        shown.join('\n'),
        /The skill pdf-processing of fixture was refused: skill:\/\/pdf-processing\/SKILL\.md failed verification \(digest\)/,
      );
    } finally {
      [commands.registerCommand, w.showErrorMessage, w.showInformationMessage] = [originalRegister, originalError, originalInfo];
    }
  });
});
