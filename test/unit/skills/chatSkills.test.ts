/**
 * Skills offered to `@roundtrip`'s model (src/vscode/chat/chatSkills.ts, src/core/skills/skillTools.ts):
 * enabled skills only, label-qualified names on a collision, `read_skill` through the approval and a
 * verified read with its origin tagged, `read_skill_file` only for a loaded skill, a tampered one refused.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { summarize } from '../../../src/core/skills/skillEntry';
import { LOAD_SKILL } from '../../../src/core/skills/skillText';
import { skillModelNames } from '../../../src/core/skills/skillTools';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';
import type { ServerRegistry } from '../../../src/vscode/servers/serverRegistry';
import { scriptedProvider } from '../../support/providers';
import { useVscodeStub } from '../../support/vscodeStub';
import { memento } from '../../support/memento';

const SERVER = join(__dirname, '..', '..', 'fixtures', 'skillsServer.mjs');

describe('skills in @roundtrip', function () {
  this.timeout(30_000);
  useVscodeStub();
  let vscode: typeof import('vscode');
  let skillsMod: typeof import('../../../src/vscode/skills/serverSkills');
  let chatMod: typeof import('../../../src/vscode/chat/chatSkills');
  let originalWarning: unknown;
  const asked: string[] = [];
  before(() => {
    vscode = require('vscode') as typeof import('vscode');
    skillsMod = require('../../../src/vscode/skills/serverSkills') as typeof skillsMod;
    chatMod = require('../../../src/vscode/chat/chatSkills') as typeof chatMod;
    const w = vscode.window as unknown as Record<string, unknown>;
    originalWarning = w.showWarningMessage;
    w.showWarningMessage = async (message: string) => (asked.push(message), LOAD_SKILL);
  });
  after(() => ((vscode.window as unknown as Record<string, unknown>).showWarningMessage = originalWarning));
  const conns: ServerConnection[] = [];
  afterEach(async () => {
    await Promise.all(conns.splice(0).map((c) => c.close()));
  });

  /** Servers by name, each the fixture in a mode, behind a registry stand-in. */
  function servers(modes: Record<string, string>) {
    const byName = new Map(
      Object.entries(modes).map(([name, mode]) => {
        const conn = new ServerConnection(
          { transport: 'stdio', name, command: process.execPath, args: [SERVER, mode] },
          { provider: scriptedProvider({}) },
        );
        conns.push(conn);
        return [name, conn];
      }),
    );
    const registry = { connection: async (e: ServerEntry) => byName.get(e.name)! } as unknown as ServerRegistry;
    const entries = Object.keys(modes).map((name) => ({ name }) as ServerEntry);
    return { registry, entries };
  }

  it('names a skill by its name, or server/name when two offered skills share it', () => {
    const entry = (server: string, name: string) =>
      summarize(server, {
        uri: `skill://${name}/SKILL.md`,
        frontmatter: { name, description: 'd' },
        resources: 'dynamic',
      } as never);
    assert.deepEqual([...skillModelNames([entry('a', 'x'), entry('b', 'x'), entry('a', 'y')]).keys()], ['a/x', 'b/x', 'y']);
  });

  it('offers the enabled skills; read_skill loads after approval, tagged with server and base; read_skill_file reads its file', async () => {
    const { registry, entries } = servers({ one: 'honest', two: 'honest' });
    const skills = new skillsMod.ServerSkills(memento() as never);
    await skills.setEnabled({ server: 'two', uri: 'skill://pdf-processing/SKILL.md' }, false);
    const chat = new chatMod.ChatSkills(skills, registry);
    const offer = await chat.offer(entries);
    assert.ok(offer);
    assert.deepEqual(
      offer.tools.map((t) => t.name),
      ['read_skill', 'read_skill_file'],
    );
    assert.match(offer.intro, /^- pdf-processing \(MCP server one\): Fill and extract PDF forms\.$/m);
    assert.match(offer.intro, /^- one\/refunds \(MCP server one\)/m);
    assert.match(offer.intro, /^- two\/refunds \(MCP server two\)/m);
    const signal = new AbortController().signal;
    await assert.rejects(offer.run('read_skill_file', { skill: 'pdf-processing', path: 'references/FORMS.md' }, signal), /is not loaded/);
    asked.length = 0;
    const r = await offer.run('read_skill', { name: 'pdf-processing' }, signal);
    assert.deepEqual(asked, ['Load the skill "pdf-processing" from the MCP server "one"?']);
    assert.match(r.forModel, /^Skill from MCP server one, base skill:\/\/pdf-processing\/\n\n---\nname: pdf-processing/);
    const f = await offer.run('read_skill_file', { skill: 'pdf-processing', path: 'references/FORMS.md' }, signal);
    assert.match(f.forModel, /^File skill:\/\/pdf-processing\/references\/FORMS.md of a skill from MCP server one\n\n# Forms/);
  });

  it('a tampered skill reaches the model as a refusal with its reason, never its bytes', async () => {
    const { registry, entries } = servers({ bad: 'tampered-size' });
    const offer = await new chatMod.ChatSkills(new skillsMod.ServerSkills(memento() as never), registry).offer(entries);
    await assert.rejects(
      offer!.run('read_skill', { name: 'pdf-processing' }, new AbortController().signal),
      /failed verification \(size\)/,
    );
  });

  it('the bridge lists read_skill and read_skill_file beside the server’s tools and runs them through the loader', async () => {
    const { registry, entries } = servers({ one: 'honest' });
    const bridgeMod = require('../../../src/vscode/chat/mcpBridge') as typeof import('../../../src/vscode/chat/mcpBridge');
    const exposure = { exposed: () => entries, offered: () => entries, onDidChange: () => ({ dispose: () => {} }) };
    const chat = new chatMod.ChatSkills(new skillsMod.ServerSkills(memento() as never), registry);
    const bridge = new bridgeMod.McpBridge(
      { ...registry, connection: registry.connection } as never,
      exposure as never,
      { callTool: async () => ({ content: [{ type: 'text', text: 'own tool' }] }) } as never,
      { warn: () => {}, info: () => {} } as never,
      '1',
      chat,
    );
    const target = (bridge as unknown as { target(id: string): import('../../../src/core/bridge/bridgeServer').BridgeTarget }).target(
      'one',
    );
    const tools = (await target.listTools()) as { name: string; description: string }[];
    assert.deepEqual(
      tools.map((t) => t.name),
      ['read_skill', 'read_skill_file'],
    );
    assert.match(tools[0].description, /^- refunds \(MCP server one\): Handle refund requests\.$/m);
    asked.length = 0;
    const r = await target.callTool({ name: 'read_skill', arguments: { name: 'refunds' } }, new AbortController().signal, () => {});
    assert.deepEqual(asked, ['Load the skill "refunds" from the MCP server "one"?']);
    assert.match((r.content as { text: string }[])[0].text, /^Skill from MCP server one, base skill:\/\/refunds\//);
    const own = await target.callTool({ name: 'other', arguments: {} }, new AbortController().signal, () => {});
    assert.equal((own.content as { text: string }[])[0].text, 'own tool');
    bridge.dispose();
  });
});
