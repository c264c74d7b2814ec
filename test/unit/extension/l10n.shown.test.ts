/**
 * Localisation of the strings the extension shows (issue 43): in src/vscode, a text given to a
 * notification, a modal dialog, a quick pick, an input box, a progress line, a chat response or a
 * tree item is `vscode.l10n.t(...)` (whose Chinese entry l10n.bundle.test.ts checks), never an English
 * literal; in the webviews (media/src) such a text is `l10n.t(...)` of `shared/l10n.ts`. Texts of the round-trip log, errors thrown to the log and server text are not matched; a
 * text no person reads carries an `l10n-exempt:` comment saying why, on one of the two lines above.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Where a text people read starts: a call that shows its first argument, or a field of a shown item. */
const SHOWN =
  /(?:show(?:Information|Warning|Error)Message|showInputBox|notificationText|\.markdown|\.progress|\.appendText|\b(?:fail|say))\(\s*(['"`])|\b(?:placeHolder|prompt|title|label|description|detail|tooltip|text|justification|message)\s*[:=]\s*(['"`])/g;

/** The literal starting at `at` (its opening quote), with every `${...}` of a template left out. */
function literalAt(text: string, at: number): string {
  const quote = text[at];
  let out = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      out += text[++i];
    } else if (c === quote) {
      return out;
    } else if (quote === '`' && c === '$' && text[i + 1] === '{') {
      let depth = 0;
      for (; i < text.length; i++) {
        if (text[i] === '{') depth++;
        else if (text[i] === '}' && --depth === 0) break;
      }
      out += ' ';
    } else out += c;
  }
  return out;
}

/** English a person would read: two words in a row (names of the product and of settings aside). */
const englishWords = (s: string) => /[A-Za-z]{2,}[ ,:]+[a-z]{2,}/.test(s.replace(/MCP Roundtrip|mcpRoundtrip\.[\w.]+|`[^`]*`/g, ''));

/** The English literals shown to people in `src/vscode` and `src/extension.ts`, as `file:line: text`. */
export function bareShownTexts(): string[] {
  const files = [...sources(path.join(ROOT, 'src', 'vscode')), path.join(ROOT, 'src', 'extension.ts')];
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(SHOWN)) {
      const quoteAt = m.index + m[0].length - 1;
      const literal = literalAt(text, quoteAt);
      const line = text.slice(0, m.index).split('\n').length;
      // A text no person reads (for the model, an English default the extension replaces) says so just above.
      const above = text
        .split('\n')
        .slice(Math.max(0, line - 3), line)
        .join('\n');
      if (englishWords(literal) && !above.includes('l10n-exempt:')) {
        found.push(`${path.relative(ROOT, file)}:${line}: ${literal.slice(0, 80)}`);
      }
    }
  }
  return found;
}

/**
 * Where a webview's text people read starts: an element's or a button's text, a line said to a screen
 * reader, a `<select>` option, a text or an accessible name set later, a card's heading, a fact's label.
 */
const WEBVIEW_SHOWN =
  /(?:\bel\(\s*'[a-z0-9]+'\s*,|\bbutton\(|\bannounce\(|\bnew Option\(|\.textContent\s*=|setAttribute\(\s*'(?:aria-label|title|placeholder)'\s*,|\bcardShell\(\s*\w+\s*,|\bfact\(\s*(?:\w+\s*,\s*)?)\s*(['"`])/g;

/** The English literals shown to people in the webviews (media/src), as `file:line: text`. */
export function bareWebviewTexts(): string[] {
  const found: string[] = [];
  for (const file of sources(path.join(ROOT, 'media', 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(WEBVIEW_SHOWN)) {
      const literal = literalAt(text, m.index + m[0].length - 1);
      const line = text.slice(0, m.index).split('\n').length;
      const above = text
        .split('\n')
        .slice(Math.max(0, line - 3), line)
        .join('\n');
      if (/[A-Za-z]{2,}/.test(literal.replace(/MCP Roundtrip/g, '')) && !above.includes('l10n-exempt:')) {
        found.push(`${path.relative(ROOT, file)}:${line}: ${literal.slice(0, 80)}`);
      }
    }
  }
  return found;
}

describe('run-time strings: shown through vscode.l10n.t', () => {
  it('finds an English literal given to a notification (the check itself works)', () => {
    const probe = "void vscode.window.showInformationMessage('Saved the call.'); x.placeHolder = `Tool of ${s}`;";
    const at = [...probe.matchAll(SHOWN)].map((m) => literalAt(probe, m.index + m[0].length - 1));
    assert.deepEqual(at.filter(englishWords), ['Saved the call.', 'Tool of  ']);
  });

  it('no text shown to people in src/vscode is an English literal', () => {
    assert.deepEqual(bareShownTexts(), []);
  });

  it('finds an English literal in a webview (the check itself works)', () => {
    const probe = "el('p', 'Sending…', 'muted'); button(`Open ${x}`, 'id'); el('p', l10n.t('Sent.')); announce('Saved.');";
    const at = [...probe.matchAll(WEBVIEW_SHOWN)].map((m) => literalAt(probe, m.index + m[0].length - 1));
    assert.deepEqual(at, ['Sending…', 'Open  ', 'Saved.']);
  });

  it('no text shown to people in the webviews is an English literal (they go through l10n.t, the bundle the host passes)', () => {
    assert.deepEqual(bareWebviewTexts(), []);
  });
});
