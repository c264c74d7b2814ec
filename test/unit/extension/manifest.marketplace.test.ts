/**
 * Ready for the marketplace (issue 43): the categories the extension belongs in (AI, Chat), a gallery
 * banner, where to ask and report (`qna`, `bugs`, `homepage`), a SECURITY.md saying how to report a
 * vulnerability, and README images and links that are absolute URLs into the repository the manifest
 * names, each pointing at a file that exists (the marketplace shows the README outside the repository).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, any>;
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** `owner/name` of the manifest's GitHub repository. */
function repositorySlug(): string {
  const m = /^https:\/\/github\.com\/([^/]+\/[^/.]+?)(?:\.git)?$/.exec(String(manifest.repository?.url));
  assert.ok(m, `repository.url is not a GitHub repository URL: ${String(manifest.repository?.url)}`);
  return m[1];
}

describe('manifest: ready for the marketplace', () => {
  it('is in the AI and Chat categories, with a gallery banner', () => {
    assert.deepEqual(manifest.categories, ['AI', 'Chat']);
    assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(manifest.galleryBanner?.theme), 'galleryBanner.theme is dark or light');
  });

  it('says where to ask, report bugs and read more, in the repository it names', () => {
    const repo = `https://github.com/${repositorySlug()}`;
    assert.equal(manifest.homepage, `${repo}#readme`);
    assert.equal(manifest.bugs?.url, `${repo}/issues`);
    assert.equal(manifest.qna, `${repo}/discussions`);
  });

  it('has a SECURITY.md that says how to report a vulnerability privately', () => {
    const security = readFileSync(join(ROOT, 'SECURITY.md'), 'utf8');
    assert.match(security, /Report a vulnerability/);
    assert.match(security, /not in a public issue/);
  });

  it("README images and links to the repository's files are absolute URLs to files that exist", () => {
    const slug = repositorySlug();
    const raw = `https://raw.githubusercontent.com/${slug}/HEAD/`;
    const blob = `https://github.com/${slug}/blob/HEAD/`;
    const targets = [...readme.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => ({ image: m[1] === '!', url: m[2] }));
    assert.ok(
      targets.some((t) => t.image),
      'the README shows images',
    );
    for (const { image, url } of targets) {
      if (url.startsWith('#')) continue;
      assert.match(url, /^https:\/\//, `${url} is not absolute: the marketplace cannot resolve it`);
      const file = image ? (url.startsWith(raw) ? url.slice(raw.length) : undefined) : url.startsWith(blob) ? url.slice(blob.length) : '';
      assert.notEqual(file, undefined, `image ${url} is not under ${raw}`);
      if (file) assert.ok(existsSync(join(ROOT, file.replace(/#.*$/, ''))), `${url} names ${file}, which is not in the repository`);
    }
  });
});
