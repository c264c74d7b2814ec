/**
 * Localisation of the manifest (issue 43): every text a contribution shows (command titles, views,
 * welcome texts, settings, the walkthrough, the chat participant, the trust note) is a `%key%` of
 * package.nls.json, and package.nls.zh-cn.json has each key in Chinese, with the same command links
 * and the same code spans (setting values, file names) as the English.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { nlsStrings, resolvedManifest } from '../../support/manifest';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const raw = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
const en = nlsStrings();
const zh = nlsStrings('zh-cn');

/** Fields whose string values people read. `name` only where it is a label (a participant's is its @handle). */
const SHOWN = new Set([
  'title',
  'category',
  'contextualTitle',
  'description',
  'markdownDescription',
  'contents',
  'altText',
  'label',
  'fullName',
  'enumDescriptions',
]);

/** Every shown string of the contributions (and the trust note), with where it is. */
function shownStrings(): { at: string; value: string }[] {
  const out: { at: string; value: string }[] = [];
  const walk = (v: unknown, at: string, shown: boolean) => {
    if (typeof v === 'string') {
      if (shown) out.push({ at, value: v });
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`, shown));
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        const viewName = k === 'name' && /\.views\./.test(at);
        walk(x, `${at}.${k}`, shown || SHOWN.has(k) || viewName);
      }
  };
  walk((raw as { contributes: unknown }).contributes, 'contributes', false);
  walk((raw as { capabilities: unknown }).capabilities, 'capabilities', false);
  // Inside `properties` the keys are setting ids, and `default` values are data: only their texts count.
  return out.filter((s) => !/\.default\b/.test(s.at));
}

const placeholders = () => shownStrings().map((s) => /^%([^%]+)%$/.exec(s.value)?.[1]);
const codeSpans = (t: string) => [...t.matchAll(/`[^`]*`/g)].map((m) => m[0]).sort();
const links = (t: string) => [...t.matchAll(/\]\((command:[^)]+)\)/g)].map((m) => m[1]);

describe('manifest: English and Chinese', () => {
  it('every text a contribution shows is a %key% of package.nls.json', () => {
    const bare = shownStrings().filter((s) => !/^%[^%]+%$/.test(s.value));
    assert.deepEqual(bare, [], 'texts written in package.json instead of package.nls.json');
    const missing = placeholders().filter((k) => k && !(k in en));
    assert.deepEqual(missing, [], 'keys missing from package.nls.json');
  });

  it('package.nls.json has no key nothing uses, and package.nls.zh-cn.json has exactly its keys', () => {
    const used = new Set(placeholders());
    assert.deepEqual(
      Object.keys(en).filter((k) => !used.has(k)),
      [],
    );
    assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  });

  it('each Chinese text is Chinese (product names aside), with the English one’s command links and code spans', () => {
    const names = new Set(['command.category', 'viewsContainer.mcpRoundtrip.title']);
    for (const [key, text] of Object.entries(en)) {
      const t = zh[key];
      assert.ok(typeof t === 'string' && t.trim(), `${key} is empty in Chinese`);
      if (!names.has(key)) assert.match(t, /[\u4e00-\u9fff]/, `${key} is not translated: ${t}`);
      assert.deepEqual(links(t), links(text), `${key}: the command links differ`);
      assert.deepEqual(codeSpans(t), codeSpans(text), `${key}: the code spans differ`);
    }
  });

  it('resolves to the titles the issues name, in English and in Chinese', () => {
    const title = (m: Record<string, any>, id: string) =>
      (m.contributes.commands as { command: string; title: string }[]).find((c) => c.command === id)?.title;
    assert.equal(title(resolvedManifest(), 'mcpRoundtrip.callTool'), 'Call Tool…');
    assert.equal(title(resolvedManifest(), 'mcpRoundtrip.resetChatPermissions'), 'Reset Chat Permissions');
    assert.equal(title(resolvedManifest('zh-cn'), 'mcpRoundtrip.callTool'), '调用工具…');
    const ignore = readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!package\.nls\.json$/m);
    assert.match(ignore, /^!package\.nls\.\*\.json$/m);
  });
});
