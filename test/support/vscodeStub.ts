/**
 * Unit tests of `src/vscode` code under plain Node: `vscode` resolves to the bench's stand-in module
 * (test/bench/vscodeStub.cjs) for the duration of the calling `describe`.
 */
import Module from 'node:module';
import path from 'node:path';

/** The bench's `vscode` stand-in. */
export const VSCODE_STUB = path.resolve(__dirname, '..', 'bench', 'vscodeStub.cjs');

/**
 * Inside a mocha `describe`: from its `before` to its `after`, `require('vscode')` (also from the
 * modules under test) loads {@link VSCODE_STUB}. Modules that import `vscode` must be required after
 * it takes effect, i.e. in a `before` registered after this call, or in a test.
 */
export function useVscodeStub(): void {
  const resolver = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const original = resolver._resolveFilename;
  before(() => {
    resolver._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
      return request === 'vscode' ? VSCODE_STUB : original.call(this, request, ...rest);
    };
  });
  after(() => (resolver._resolveFilename = original));
}
