/**
 * The layering rules, checked on the source text: the host's core, the CLI and the demo server never
 * import `vscode` (they run under plain Node), and the webviews (media/) import nothing but their own
 * files, the webview protocols, the pure form model and markdown-it (no ajv, no Node, no `vscode`: a
 * webview bundle runs under a CSP without `unsafe-eval`). Inside `src/core` the folders are floors: each
 * imports only the floors below it ({@link CORE_FLOORS}), and no file of `src/` or `media/src` is part of
 * an import circle, so a reader can always tell who is above whom.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The modules outside media/ a webview may import. */
const WEBVIEW_MAY_IMPORT = [
  'src/vscode/roundPanel/protocol.ts',
  'src/vscode/shared/webviewHtml.ts',
  'src/core/elicitation/formField.ts',
  'src/core/elicitation/formModel.ts',
  'src/core/elicitation/formMessages.ts',
  'src/core/results/resultView.ts',
  'src/core/util/shownText.ts',
  'src/core/util/textTemplates.ts',
  'src/vscode/apps/appViewProtocol.ts',
  'src/core/apps/appRequests.ts',
];
/** The packages a webview may import (the result view's Markdown parser, which builds no HTML itself; the app view's AppBridge). */
const WEBVIEW_PACKAGES = ['markdown-it', '@modelcontextprotocol/ext-apps/app-bridge'];

/**
 * The floors of `src/core`, from the ground up: a file may import its own folder and the folders listed
 * before its own, never one after it (`limits` is `src/core/limits.ts`).
 */
export const CORE_FLOORS = [
  'util',
  'limits',
  'transport',
  'jsonSchema',
  'bridge',
  'elicitation',
  'inputs',
  'arguments',
  'apps',
  'log',
  'results',
  'sampling',
  'history',
  'oauth',
  'connection',
  'skills',
  'config',
  'chat',
  'mrtr',
  'tasks',
];

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
  for (const [file, text] of files)
    for (const spec of importsOf(text)) if (spec === 'vscode' || spec.startsWith('vscode/')) out.push(`${file} imports ${spec}`);
  return out;
}

/** `file imports spec` for each import of a webview file that is not its own, the protocol or the form model. */
export function webviewImportsOutside(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    for (const spec of importsOf(text)) {
      const target = spec.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)) : undefined;
      const allowed =
        target !== undefined
          ? target.startsWith('media/') || WEBVIEW_MAY_IMPORT.includes(`${target}.ts`) || WEBVIEW_MAY_IMPORT.includes(target)
          : WEBVIEW_PACKAGES.includes(spec);
      if (!allowed) out.push(`${file} imports ${spec}`);
    }
  }
  return out;
}

/** The repository path a relative import of `file` names, when it is one of `known` (`x`, `x.ts`, `x/index.ts`). */
function resolved(file: string, spec: string, known: ReadonlySet<string>): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  return [target, `${target}.ts`, `${target}/index.ts`].find((c) => known.has(c));
}

/** The floor of a file of `src/core` (its folder, or `limits` for `src/core/limits.ts`). */
function floorOf(file: string): string {
  const rest = file.slice('src/core/'.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : rest.replace(/\.ts$/, '');
}

/** `file (floor) imports spec (floor)` for each import of a `src/core` file that reaches a floor above its own, or a floor {@link CORE_FLOORS} does not name. */
export function floorsUpward(files: ReadonlyMap<string, string>, floors: readonly string[] = CORE_FLOORS): string[] {
  const known = new Set(files.keys());
  const out: string[] = [];
  for (const [file, text] of files) {
    const from = floorOf(file);
    if (!floors.includes(from)) {
      out.push(`${file} is on no floor (add its folder to CORE_FLOORS)`);
      continue;
    }
    for (const spec of importsOf(text)) {
      const target = resolved(file, spec, known);
      if (target === undefined || !target.startsWith('src/core/')) continue;
      const to = floorOf(target);
      if (floors.indexOf(to) > floors.indexOf(from)) out.push(`${file} (${from}) imports ${spec} (${to})`);
    }
  }
  return out;
}

/** Each import circle among `files` (its files, sorted, joined by ` ⇄ `), found as the strongly connected components of the import graph. */
export function importCircles(files: ReadonlyMap<string, string>): string[] {
  const known = new Set(files.keys());
  const edges = new Map(
    [...files].map(([file, text]) => [
      file,
      importsOf(text)
        .map((s) => resolved(file, s, known))
        .filter((t): t is string => t !== undefined),
    ]),
  );
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) circles.push(component.sort().join(' ⇄ '));
  };
  for (const file of files.keys()) if (!index.has(file)) visit(file);
  return circles.sort();
}

const read = (files: string[]) => new Map(files.map((f) => [f, readFileSync(path.join(ROOT, f), 'utf8')]));

describe('import rules (layering)', () => {
  it('src/core, src/cli and src/demo never import vscode', () => {
    const files = read([...sources('src/core'), ...sources('src/cli'), ...sources('src/demo')]);
    assert.ok(files.size > 50, `only ${files.size} files found`);
    assert.deepEqual(vscodeImports(files), []);
  });

  it('media/ imports only its own files, the webview protocols, the pure form model and its messages, the shown-text cut, the text templates and markdown-it', () => {
    const files = read(sources('media/src'));
    assert.ok(files.size > 10, `only ${files.size} files found`);
    assert.deepEqual(webviewImportsOutside(files), []);
  });

  it('no folder of src/core imports a floor above its own', () => {
    const files = read(sources('src/core'));
    assert.deepEqual(floorsUpward(files), []);
  });

  it('no file of src/ or media/src is part of an import circle', () => {
    const files = read([...sources('src'), ...sources('media/src')]);
    assert.ok(files.size > 200, `only ${files.size} files found`);
    assert.deepEqual(importCircles(files), []);
  });

  it('reports a floor imported from below, a file on no floor, and each circle (so the two rules above would fail on one)', () => {
    const core = new Map([
      ['src/core/util/a.ts', "import { b } from '../inputs/b';"],
      ['src/core/inputs/b.ts', "import { a } from '../util/a';\nimport { LIMIT } from '../limits';"],
      ['src/core/limits.ts', "import type { C } from './mrtr/c';"],
      ['src/core/mrtr/c.ts', "import { d } from './d';"],
      ['src/core/mrtr/d.ts', "import type { C } from './c';"],
      ['src/core/newRoom/e.ts', "import { a } from '../util/a';"],
    ]);
    assert.deepEqual(floorsUpward(core), [
      'src/core/util/a.ts (util) imports ../inputs/b (inputs)',
      'src/core/limits.ts (limits) imports ./mrtr/c (mrtr)',
      'src/core/newRoom/e.ts is on no floor (add its folder to CORE_FLOORS)',
    ]);
    assert.deepEqual(importCircles(core), ['src/core/inputs/b.ts ⇄ src/core/util/a.ts', 'src/core/mrtr/c.ts ⇄ src/core/mrtr/d.ts']);
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
      [
        'media/src/roundPanel/x.ts',
        [
          "import { el } from '../shared/dom';",
          "import type { FromWebview } from '../../../src/vscode/roundPanel/protocol';",
          "import { coerceFieldValue } from '../../../src/core/elicitation/formModel';",
          "import { checkFormContent } from '../../../src/core/elicitation/formCheck';",
          "import Ajv from 'ajv';",
          "export { x } from '../../../src/core/util/json';",
        ].join('\n'),
      ],
    ]);
    assert.deepEqual(webviewImportsOutside(media), [
      'media/src/roundPanel/x.ts imports ../../../src/core/elicitation/formCheck',
      'media/src/roundPanel/x.ts imports ajv',
      'media/src/roundPanel/x.ts imports ../../../src/core/util/json',
    ]);
  });
});
