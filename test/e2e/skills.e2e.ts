/**
 * Skills (SEP-2640) in a real VS Code (code-server), from the packaged .vsix, with the skills fixture
 * (test/fixtures/skillsServer.mjs, on the SDK's `SkillsExtension`) as two servers: `skilled` (honest)
 * and `tampered` (its `pdf-processing/SKILL.md` read back with other bytes than its digest says):
 * - `@roundtrip` loads a skill through `read_skill` after the modal approval (**Load Skill**), and the
 *   model gets it tagged with its server and base URI.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openWorkbench, repoRoot, runCommand, screenshot, startCodeServer, waitFor, type CodeServerHost, type Workbench } from './harness';
import { INPUT, chatText, newChat, send, suiteHooks, TEST_MODELS, VSIX, waitForChat } from './support';

const SKILLS_SERVER = path.join(repoRoot, 'test', 'fixtures', 'skillsServer.mjs');

describe('e2e skills: @roundtrip read_skill', function () {
  this.timeout(300_000);
  let host: CodeServerHost;
  let wb: Workbench;
  let ws = '';

  before(async () => {
    ws = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-e2e-skills-'));
    writeFileSync(path.join(ws, 'notes.md'), '# Notes\n');
    host = await startCodeServer({
      workspace: ws,
      vsix: VSIX,
      extensionDirs: [TEST_MODELS],
      settings: {
        'mcpRoundtrip.servers': {
          skilled: { type: 'stdio', command: process.execPath, args: [SKILLS_SERVER, 'honest'] },
          tampered: { type: 'stdio', command: process.execPath, args: [SKILLS_SERVER, 'tampered-digest'] },
        },
        'mcpRoundtrip.chat.exposeServers': ['skilled'],
      },
    });
    wb = await openWorkbench(host.url, ws);
  });
  suiteHooks(() => ({ wb, host, ws }), { shotPrefix: 'failure-skills-', resetEach: true });

  it('@roundtrip loads a skill through read_skill after the approval modal; the model gets it tagged with its server', async () => {
    const input = wb.page.locator(INPUT).first();
    if (!(await input.isVisible())) await runCommand(wb.page, 'Chat: Open Chat');
    await input.waitFor({ timeout: 60_000 });
    // In a fresh window no model is picked yet: the first request says so (or, once picked, is answered).
    if ((await chatText(wb.page)).trim() === '') {
      await send(wb.page, '@roundtrip hello');
      await waitForChat(wb.page, /Language model unavailable|reply to|tool result/);
    }
    await newChat(wb.page);
    // The skill tools come first, and the test model calls the first with the prompt as its `name`.
    await send(wb.page, '@roundtrip refunds');
    const approval = wb.page.locator('.monaco-dialog-box', { hasText: 'Load the skill "refunds" from the MCP server "skilled"?' });
    await approval.waitFor({ timeout: 90_000 });
    const text = await approval.innerText();
    assert.match(text, /Skill: skill:\/\/refunds\/SKILL\.md/);
    assert.match(text, /Files \(1 file, 96 B\):/);
    await screenshot(wb.page, 'skills-approval');
    await approval.locator('.monaco-button', { hasText: /^Load Skill$/ }).click();
    const chat = await waitForChat(wb.page, /tool result for call_read_skill_1: Skill from MCP server skilled, base skill:\/\/refunds\//);
    assert.match(chat, /Loaded the skill refunds from skilled/);
    await screenshot(wb.page, 'skills-chat-read-skill');
    await waitFor('no approval left open', async () => (await approval.count()) === 0 || undefined, { timeoutMs: 30_000 });
  });
});
