// Copies the extension as it ships (what the .vsix holds: package.json, dist/, media/, README,
// CHANGELOG, LICENSE) into a folder a VS Code can load. Used by `npm start` and the e2e suite.
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Keep in step with .vscodeignore.
const SHIPPED = [
  'package.json',
  'package.nls.json',
  'package.nls.zh-cn.json',
  'l10n',
  'dist',
  'media',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
];

/**
 * @param {string} dest folder to (re)create
 * @returns {string} dest
 */
export function stageExtension(dest) {
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  for (const name of SHIPPED) {
    const from = path.join(root, name);
    // Webview sources (media/src) are bundled into dist/webview and not shipped.
    if (existsSync(from))
      cpSync(from, path.join(dest, name), { recursive: true, filter: (p) => !p.startsWith(path.join(root, 'media', 'src')) });
  }
  if (!existsSync(path.join(dest, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run `npm run build` first');
  return dest;
}
