/**
 * The layering rules, checked on the source text: the host's core, the CLI and the demo server never
 * import `vscode` (they run under plain Node), and the webviews (media/) import nothing but their own
 * files, the webview protocols, the pure form model and markdown-it (no ajv, no Node, no `vscode`: a
 * webview bundle runs under a CSP without `unsafe-eval`).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The modules outside media/ a webview may import. */
const WEBVIEW_MAY_IMPORT = ['src/vscode/roundPanel/protocol.ts', 'src/core/elicitation/formModel.ts', 'src/core/results/resultView.ts', 'src/core/util/shownText.ts'];
/** The packages a webview may import (the result view's Markdown parser; it builds no HTML itself). */
const WEBVIEW_PACKAGES = ['markdown-it'];

/** Every `.ts` file under `dir` (relative to the repository root, with `/`). */
function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(path.join(ROOT, d), { withFileTypes: true })) {
      const rel = `${d}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.ts')) out.push(rel);
    }
  };
  walk(dir);
  return out;
}

/** The module specifiers a source text imports: static, type-only, re-exports, `import()` and `require()`. */
export function importsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\w])\/\/.*$/gm, '$1');
  const specs: string[] = [];
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])([^'"\n]+)\1/gm)) specs.push(m[2]);
  return specs;
}

/** `file imports spec` for each import of `vscode` in `files` (path → source text). */
export function vscodeImports(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of files) for (const spec of importsOf(text)) if (spec === 'vscode' || spec.startsWith('vscode/')) out.push(`${file} imports ${spec}`);
  return out;
}

/** `file imports spec` for each import of a webview file that is not its own, the protocol or the form model. */
export function webviewImportsOutside(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    for (const spec of importsOf(text)) {
      const target = spec.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)) : undefined;
      const allowed = target !== undefined ? target.startsWith('media/') || WEBVIEW_MAY_IMPORT.includes(`${target}.ts`) || WEBVIEW_MAY_IMPORT.includes(target) : WEBVIEW_PACKAGES.includes(spec);
      if (!allowed) out.push(`${file} imports ${spec}`);
    }
  }
  return out;
}

const read = (files: string[]) => new Map(files.map((f) => [f, readFileSync(path.join(ROOT, f), 'utf8')]));

describe('import rules (layering)', () => {
  it('src/core, src/cli and src/demo never import vscode', () => {
    const files = read([...sources('src/core'), ...sources('src/cli'), ...sources('src/demo')]);
    assert.ok(files.size > 50, `only ${files.size} files found`);
    assert.deepEqual(vscodeImports(files), []);
  });

  it('media/ imports only its own files, the webview protocols, the pure form model, the shown-text cut and markdown-it', () => {
    const files = read(sources('media/src'));
    assert.ok(files.size > 10, `only ${files.size} files found`);
    assert.deepEqual(webviewImportsOutside(files), []);
  });

  it('reports each kind of violation (so the rules above would fail on one)', () => {
    const core = new Map([
      ['src/core/a.ts', "import * as vscode from 'vscode';"],
      ['src/core/b.ts', "import type { Uri } from 'vscode';\n// import x from 'vscode' in a comment is not an import"],
      ['src/core/c.ts', "const v = require('vscode');\nconst url = 'https://example.com/vscode';"],
      ['src/core/d.ts', "import { x } from './x';"],
    ]);
    assert.deepEqual(vscodeImports(core), ['src/core/a.ts imports vscode', 'src/core/b.ts imports vscode', 'src/core/c.ts imports vscode']);
    const media = new Map([
      ['media/src/roundPanel/x.ts', ["import { el } from '../shared/dom';", "import type { FromWebview } from '../../../src/vscode/roundPanel/protocol';", "import { coerceFieldValue } from '../../../src/core/elicitation/formModel';", "import { checkFormContent } from '../../../src/core/elicitation/formCheck';", "import Ajv from 'ajv';", "export { x } from '../../../src/core/util/json';"].join('\n')],
    ]);
    assert.deepEqual(webviewImportsOutside(media), [
      'media/src/roundPanel/x.ts imports ../../../src/core/elicitation/formCheck',
      'media/src/roundPanel/x.ts imports ajv',
      'media/src/roundPanel/x.ts imports ../../../src/core/util/json',
    ]);
  });
});
