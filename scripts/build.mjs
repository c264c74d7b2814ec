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
  // The demo server the same way: a launcher that loads its bundle through V8's code cache.
  { in: 'src/demo/bin.ts', out: 'demo-server' },
  { in: 'src/demo/main.ts', out: 'demo-server-main' },
  { in: 'src/cli/conformanceClient.ts', out: 'conformance-client' },
].filter((e) => existsSync(e.in));

/** Webview bundles (browser IIFE). */
const webEntries = [
  { in: 'media/src/roundPanel/main.ts', out: 'webview/roundPanel' },
  { in: 'media/src/resultView/main.ts', out: 'webview/resultView' },
  // The app view's host: its own small script frames the app; ext-apps' AppBridge (with zod) is a
  // bundle of its own, which the view loads beside the app. Loaded only by an app view, never at activation.
  { in: 'media/src/appView/main.ts', out: 'webview/appView' },
  { in: 'media/src/appView/bridge.ts', out: 'webview/appBridge' },
  // The app host of an app-rendered elicitation: loaded by the round panel only when a card frames an app.
  { in: 'media/src/appView/appCard.ts', out: 'webview/appCard' },
].filter((e) => existsSync(e.in));

/**
 * Libraries loaded only on first use stay out of the entry bundles, each in a bundle of its own next to
 * the entry files, so activation never parses them: `require('re2js')` resolves to dist/re2js.js,
 * `require('./ajvModules')` (src/core/jsonSchema/validator.ts) to dist/ajv.js, and the chat bridge's
 * `require('../../core/bridge/loopbackEndpoint')` (src/vscode/chat/mcpBridge.ts) to dist/mcp-roundtrip-bridge.js.
 */
const LAZY = {
  re2js: 'node_modules/re2js/build/index.cjs',
  ajv: 'src/core/jsonSchema/ajvModules.ts',
  // The chat bridge's loopback endpoint carries the SDK's server side: loaded when chat first needs it.
  'mcp-roundtrip-bridge': 'src/core/bridge/loopbackEndpoint.ts',
};
/** The `require(...)` path each lazy bundle is loaded by (in the sources, so unbundled tests load the same module). */
const LAZY_IMPORTS = { re2js: /^re2js$/, ajv: /^\.\/ajvModules$/, 'mcp-roundtrip-bridge': /\/core\/bridge\/loopbackEndpoint$/ };
const lazyLibraries = {
  name: 'lazy-libraries',
  setup(build) {
    for (const [name, filter] of Object.entries(LAZY_IMPORTS)) {
      build.onResolve({ filter }, (args) => (args.kind === 'require-call' ? { path: `./${name}.js`, external: true } : undefined));
    }
  },
};
/**
 * The SDK client's default JSON Schema validator is its own ajv setup (150 KB, and the native regular
 * expression engine for a server's `pattern`); the host gives every client its own, so the bundles take
 * the host's validator as that default too (src/core/arguments/sdkShims.ts).
 */
const SDK_SHIMS = { '@modelcontextprotocol/client/_shims': './src/core/arguments/sdkShims.ts' };

const common = { bundle: true, minify: !dev, sourcemap: dev ? 'inline' : false, logLevel: 'warning', legalComments: 'none' };

const contexts = [
  await esbuild.context({
    ...common,
    entryPoints: nodeEntries,
    plugins: [lazyLibraries],
    alias: SDK_SHIMS,
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
    define: { navigator: 'undefined' },
    mainFields: ['module', 'main'],
  }),
);
if (webEntries.length) {
  contexts.push(
    // markdown-it needs only the decoder of `entities` (its encoder tables are a third of the bundle).
    await esbuild.context({
      ...common,
      entryPoints: webEntries,
      outdir: 'dist',
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      alias: { entities: 'entities/lib/decode.js' },
    }),
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
