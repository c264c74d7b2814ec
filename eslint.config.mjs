// ESLint 9 flat config: typescript-eslint's type-checked recommended rules over the TypeScript (src, media/src,
// test, scripts: every .ts/.mts in tsconfig.json), ESLint's recommended rules alone over the JavaScript.
// Floating and misused promises are errors: a fire-and-forget is written `void promise` on purpose.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // Build outputs anywhere (test/integration/dist too), as .gitignore says.
  { ignores: ['**/dist/', '**/out/', '.vscode-test/', 'test-results/', 'test/bench/results/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A leading underscore marks a name unused on purpose (a parameter kept for its position, a key left out of a rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // `async` without `await` is deliberate: it keeps a Promise-returning interface (stores, stubs) and turns a throw into a rejection.
      '@typescript-eslint/require-await': 'off',
      // String() of a server's value typed unknown is deliberate: a value of the wrong type is shown as it stringifies.
      '@typescript-eslint/no-base-to-string': 'off',
      // Rejecting with an AbortSignal's reason (typed any) is deliberate: the abort's own reason propagates, as fetch does.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // A `let` read by a closure before its one assignment is deliberate (the closure sees undefined until then, not a TDZ error).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // An empty catch is the deliberate best-effort idiom (cleanup that may fail).
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  // The webview's code runs in the browser.
  { files: ['media/src/**'], languageOptions: { globals: { ...globals.browser } } },
  // Tests stub, probe and monkeypatch on purpose.
  {
    files: ['test/**'],
    rules: {
      // Parsed JSON-RPC bodies, results and stubs are probed field by field; a wrong shape fails the test anyway.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Tests save a prototype's or a global's method and call it back with .call(this).
      '@typescript-eslint/unbound-method': 'off',
      // require() reloads a module through require.cache, or loads the vscode stub before the code under test.
      '@typescript-eslint/no-require-imports': 'off',
      // Failure messages interpolate an unknown value (a caught error, a message id) as it is.
      '@typescript-eslint/restrict-template-expressions': 'off',
    },
  },
  // JavaScript (scripts, runners, fixtures) is not in tsconfig.json: no type information, so no type-checked rules.
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    rules: {
      // CommonJS files (fixture extensions, .cjs) load with require().
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
