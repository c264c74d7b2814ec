// Bundles the integration suite (test/integration/suite/index.ts and the *.test.ts it loads, mocha
// included) into test/integration/dist/suite.js, a CommonJS file an extension host can `require`.
//   node test/integration/build.mjs
import * as esbuild from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The bundle's path. */
export const SUITE_BUNDLE = path.join(here, 'dist', 'suite.js');

/**
 * Builds dist/suite.js (`vscode` left to the extension host; mocha's optional parallel-mode and
 * browser pieces are not needed).
 * @returns {Promise<string>} the bundle's path
 */
export async function buildSuite() {
  await esbuild.build({
    entryPoints: [path.join(here, 'suite', 'index.ts')],
    outfile: SUITE_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'warning',
    define: { navigator: 'undefined' },
    // mocha's parallel mode (never used here) resolves worker files next to itself: not needed in the bundle.
    logOverride: { 'require-resolve-not-external': 'silent' },
  });
  return SUITE_BUNDLE;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await buildSuite());
}
