// Bundles every entry point with esbuild. `--watch` rebuilds on change; `--dev` keeps it unminified.
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';

const watch = process.argv.includes('--watch');
// `--metafile`: also write out/build-meta.json (esbuild's metafile of the Node bundles), read by the
// benchmark to say where the bytes of dist/extension.js come from.
const wantMeta = process.argv.includes('--metafile');
const dev = process.argv.includes('--dev') || watch;

/** Node entry points (CJS so VS Code's extension host can `require` them). */
const nodeEntries = [
  { in: 'src/extension.ts', out: 'extension' },
  // The executable starts a --stdio server, then loads the host (cli-main.js) while it starts.
  { in: 'src/cli/bin.ts', out: 'cli' },
  { in: 'src/cli/main.ts', out: 'cli-main' },
  { in: 'src/demo/main.ts', out: 'demo-server' },
  { in: 'src/cli/conformanceClient.ts', out: 'conformance-client' },
].filter((e) => existsSync(e.in));

/** Webview bundles (browser IIFE). */
const webEntries = [
  { in: 'media/src/roundPanel/main.ts', out: 'webview/roundPanel' },
  { in: 'media/src/resultView/main.ts', out: 'webview/resultView' },
].filter((e) => existsSync(e.in));

/**
 * Libraries loaded only on first use stay out of the entry bundles: `require('re2js')` resolves to
 * dist/re2js.js (its own bundle, next to the entry files), so activation never parses it.
 */
const LAZY = { re2js: 'node_modules/re2js/build/index.cjs' };
const lazyLibraries = {
  name: 'lazy-libraries',
  setup(build) {
    const filter = new RegExp(`^(${Object.keys(LAZY).join('|')})$`);
    build.onResolve({ filter }, (args) => ({ path: `./${args.path}.js`, external: true }));
  },
};

const common = { bundle: true, minify: !dev, sourcemap: dev ? 'inline' : false, logLevel: 'warning', legalComments: 'none' };

const contexts = [
  await esbuild.context({
    ...common,
    entryPoints: nodeEntries,
    plugins: [lazyLibraries],
    metafile: wantMeta,
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // Libraries probe the browser global `navigator` (zod's eval check); in VS Code's extension host
    // touching it logs a PendingMigrationError. Node bundles have no navigator: say so at build time.
    define: { navigator: 'undefined' },
    mainFields: ['module', 'main'],
    banner: { js: '' },
  }),
];
contexts.push(
  await esbuild.context({
    ...common,
    entryPoints: Object.entries(LAZY).map(([name, file]) => ({ in: file, out: name })),
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  }),
);
if (webEntries.length) {
  contexts.push(
    await esbuild.context({ ...common, entryPoints: webEntries, outdir: 'dist', platform: 'browser', format: 'iife', target: 'es2022' }),
  );
}
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  const results = await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  if (wantMeta) {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync('out', { recursive: true });
    writeFileSync('out/build-meta.json', JSON.stringify(results[0].metafile));
  }
}
