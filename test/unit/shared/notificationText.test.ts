/** Notification text carries no clickable link from a server (review finding: command: links). */
import assert from 'node:assert/strict';
import { notificationText } from '../../../src/vscode/shared/notificationText';

describe('notification text', () => {
  it('breaks Markdown link syntax so a server cannot plant a command: link', () => {
    const hostile = 'failed: [Open settings](command:workbench.action.openSettings?%5B%22x%22%5D) or [site]  (https://evil.test)';
    const out = notificationText(hostile);
    // VS Code's notification link syntax needs "](" adjacent.
    assert.ok(!out.includes(']('), out);
    assert.ok(hostile.includes(']('));
    assert.ok(out.includes('command:workbench.action.openSettings'), 'the text stays readable');
  });
  it('keeps one line and drops bidi overrides', () => {
    assert.equal(notificationText('a\nb\u202Ec'), 'a b c');
  });
  it('bounds the length', () => {
    assert.ok(notificationText('x'.repeat(5000)).length <= 401);
  });
});
