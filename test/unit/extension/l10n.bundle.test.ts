/**
 * Localisation of the strings the extension shows at run time (issue 43): every message given to
 * `vscode.l10n.t` in src/, and every message the webviews give to their `l10n.t` (media/src/shared/l10n.ts,
 * the same bundle passed to the page), has its Chinese entry in l10n/bundle.l10n.zh-cn.json, with the same
 * placeholders; the bundle has no entry nothing uses; the manifest points VS Code at the folder and
 * the .vsix ships it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { FIELD_ERROR_TEXTS } from '../../../src/core/elicitation/formMessages';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const bundle = JSON.parse(readFileSync(path.join(ROOT, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The messages given to `l10n.t` in src/ and in the webviews (media/src, `shared/l10n.ts`), by file; a call whose message is not a plain literal is reported. */
function messages(): { file: string; message?: string; call: string }[] {
  const out: { file: string; message?: string; call: string }[] = [];
  for (const file of [...sources(path.join(ROOT, 'src')), ...sources(path.join(ROOT, 'media', 'src'))]) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/l10n\.t\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|([^\s'"][^,)]*))/g)) {
      const literal = m[1] ?? m[2];
      out.push({
        file: path.relative(ROOT, file),
        message: literal === undefined ? undefined : (JSON.parse(`"${literal.replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) as string),
        call: m[0],
      });
    }
  }
  return out;
}

const placeholders = (t: string) => [...t.matchAll(/\{[^}]+\}/g)].map((m) => m[0]).sort();

describe('run-time strings: English and Chinese', () => {
  it('every l10n.t message is a literal with a Chinese entry in the bundle, with the same placeholders', () => {
    const found = messages();
    assert.ok(found.length > 0, 'no l10n.t call found');
    assert.deepEqual(
      found.filter((f) => f.message === undefined),
      [],
      'l10n.t needs a literal message (the bundle is keyed by it)',
    );
    for (const { file, message } of found) {
      const zh = bundle[message!];
      assert.ok(zh, `${file}: "${message}" has no entry in l10n/bundle.l10n.zh-cn.json`);
      assert.match(zh, /[\u4e00-\u9fff]/, `${file}: "${message}" is not translated`);
      assert.deepEqual(placeholders(zh), placeholders(message!), `"${message}": the placeholders differ`);
    }
  });

  it('every field error template of the core (shown through fieldErrorText) has its Chinese entry, with the same placeholders', () => {
    for (const key of FIELD_ERROR_TEXTS) {
      const zh = bundle[key];
      assert.ok(zh, `field error "${key}" has no entry in l10n/bundle.l10n.zh-cn.json`);
      assert.match(zh, /[\u4e00-\u9fff]/, `"${key}" is not translated`);
      assert.deepEqual(placeholders(zh), placeholders(key), `"${key}": the placeholders differ`);
    }
  });

  it('the bundle has no entry nothing uses; the manifest and the .vsix carry the folder', () => {
    const used = new Set([...messages().map((m) => m.message), ...FIELD_ERROR_TEXTS]);
    assert.deepEqual(
      Object.keys(bundle).filter((k) => !used.has(k)),
      [],
    );
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { l10n?: string };
    assert.equal(manifest.l10n, './l10n');
    assert.match(readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8'), /^!l10n\/\*\.json$/m);
  });
});
