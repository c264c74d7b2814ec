/**
 * Skills (SEP-2640) in a real VS Code (code-server), from the packaged .vsix, with the skills fixture
 * (test/fixtures/skillsServer.mjs, on the SDK's `SkillsExtension`) as two servers: `skilled` (honest)
 * and `tampered` (its `pdf-processing/SKILL.md` read back with other bytes than its digest says):
 * - the Servers view lists each server's skills with description, files and bytes;
 * - **Inspect Skill**, the inline action of a skill's row, opens its verified `SKILL.md` read-only;
 * - Inspect Skill on the tampered one (from the Command Palette, the skill picked) is refused with its
 *   reason, and nothing of it opens;
 * - `@roundtrip` loads a skill through `read_skill` after the modal approval (**Load Skill**), and the
 *   model gets it tagged with its server and base URI.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  openWorkbench,
  repoRoot,
  runCommand,
  screenshot,
  startCodeServer,
  waitFor,
  waitForNotification,
  type CodeServerHost,
  type Workbench,
} from './harness';
import { INPUT, chatText, commandPick, newChat, pick, send, serverRows, suiteHooks, TEST_MODELS, VSIX, waitForChat } from './support';

const SKILLS_SERVER = path.join(repoRoot, 'test', 'fixtures', 'skillsServer.mjs');

/** The Servers view's row of the server `name` (its label's whole text). */
function serverRow(page: Page, name: string): Locator {
  const whole = new RegExp(`^\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  return page.locator('.pane-body .monaco-list-row[aria-level="1"]', { has: page.locator('.label-name', { hasText: whole }) }).first();
}

/**
 * Expand the server `server` in the Servers view (connecting to it), every other one collapsed so the
 * rows under a server are its own, and wait until its skill row `skill` shows; returns that row.
 */
async function skillRow(page: Page, server: string, skill: string): Promise<Locator> {
  await serverRows(page);
  const s = serverRow(page, server);
  await s.waitFor({ timeout: 60_000 });
  for (const other of await page.locator('.pane-body .monaco-list-row[aria-level="1"][aria-expanded="true"]').all())
    if ((await other.locator('.label-name').first().innerText()).trim() !== server) await other.locator('.monaco-tl-twistie').click();
  if ((await s.getAttribute('aria-expanded')) !== 'true') await s.locator('.monaco-tl-twistie').click();
  const r = page.locator('.pane-body .monaco-list-row[aria-level="2"]', { hasText: skill }).first();
  await r.waitFor({ timeout: 90_000 });
  return r;
}

/** A row's text on one line. */
async function rowText(r: Locator): Promise<string> {
  return (await r.innerText()).replace(/\s+/g, ' ').trim();
}

describe('e2e skills: Servers view, Inspect Skill, @roundtrip read_skill', function () {
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

  it("lists a server's skills in the Servers view; Inspect Skill (the row's inline action) opens its SKILL.md, verified and read-only", async () => {
    const refunds = await skillRow(wb.page, 'skilled', 'refunds');
    assert.match(await rowText(refunds), /^refunds ?Handle refund requests\. · 1 file, 96 B$/);
    const pdf = wb.page.locator('.pane-body .monaco-list-row[aria-level="2"]', { hasText: 'pdf-processing' }).first();
    assert.match(await rowText(pdf), /^pdf-processing ?Fill and extract PDF forms\. · 2 files, 216 B$/);
    await screenshot(wb.page, 'skills-servers-view');
    // The inline action shows on hover. VS Code resolves the row it was clicked on when the command
    // runs; while the view lists a server's children again (after any change, e.g. the server being
    // offered to chat) its rows are briefly unknown to it, and the command then gets no row: Inspect
    // Skill asks which skill instead (never nothing at all), and the person picks it there.
    await refunds.hover();
    const action = refunds.locator('.action-label[aria-label="Inspect Skill"]');
    await action.waitFor({ state: 'visible', timeout: 30_000 });
    await action.click();
    const editor = wb.page.locator('.editor-instance .monaco-editor .view-lines', { hasText: 'Ask for the order number.' }).first();
    const asked = wb.page.locator('.quick-input-widget input.input[placeholder="The skill to inspect"]');
    const shown = await waitFor(
      'the SKILL.md opened, or the pick of the skill to inspect',
      async () => ((await editor.isVisible()) ? 'editor' : (await asked.isVisible()) ? 'pick' : undefined),
      { timeoutMs: 60_000 },
    );
    if (shown === 'pick') await pick(wb.page, 'refunds', 'refunds');
    await editor.waitFor({ timeout: 60_000 });
    assert.match((await editor.innerText()).replace(/\u00a0/g, ' '), /name: refunds[\s\S]*# Refunds/);
    assert.equal(await wb.page.locator('.tabs-container .tab', { hasText: 'SKILL.md' }).count(), 1);
    await screenshot(wb.page, 'skills-inspect');
    // A document of the skill's scheme cannot be edited: typing changes nothing.
    await editor.click();
    await wb.page.keyboard.type('tampering');
    assert.doesNotMatch(await editor.innerText(), /tampering/);
  });

  it('Inspect Skill on a tampered skill (from the Command Palette, the skill picked) is refused with its reason; nothing of it opens', async () => {
    // Expanding the server connects to it and lists its skills (the pick offers connected servers' skills).
    const pdf = await skillRow(wb.page, 'tampered', 'pdf-processing');
    assert.match(await rowText(pdf), /^pdf-processing ?Fill and extract PDF forms\./);
    await commandPick(wb.page, 'MCP Roundtrip: Inspect Skill', [['tampered', 'pdf-processing']]);
    const toast = await waitForNotification(wb.page, /was refused/, { timeoutMs: 60_000 });
    assert.match(
      toast,
      /The skill pdf-processing of tampered was refused: skill:\/\/pdf-processing\/SKILL\.md failed verification \(digest\)/,
    );
    await screenshot(wb.page, 'skills-tampered-refused');
    assert.equal(await wb.page.locator('.tabs-container .tab', { hasText: 'SKILL.md' }).count(), 0, 'no SKILL.md opened');
  });

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
