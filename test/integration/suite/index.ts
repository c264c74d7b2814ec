/**
 * Entry point of the integration suite, bundled by test/integration/build.mjs into
 * test/integration/dist/suite.js (mocha inside, `vscode` external). Two ways in:
 * - `run()`: what `@vscode/test-electron` calls (`extensionTestsPath`); rejects when a test failed.
 * - `runSuite()`: what the code-server runner extension (test/integration/runner-extension) calls;
 *   returns the counts, the failures and the spec reporter's text.
 */
import { format } from 'node:util';
import Mocha from 'mocha';
import * as vscode from 'vscode';

/** The outcome of one run of the suite. */
export interface SuiteResult {
  passes: number;
  failures: { title: string; message: string; stack?: string }[];
  pending: string[];
  /** The spec reporter's output, ending with mocha's "N passing" / "N failing" lines. */
  text: string;
  durationMs: number;
  trusted: boolean;
}

/** Options of {@link runSuite}. */
export interface SuiteOptions {
  /** Only tests whose full title matches (mocha `grep`). */
  grep?: string;
  /** Also write the spec text here as it comes (test-electron: the console). */
  echo?: (line: string) => void;
}

/** Registers the test files on `mocha` (after `pre-require` set the bdd globals). */
function loadTests(mocha: Mocha): void {
  mocha.suite.emit(Mocha.Suite.constants.EVENT_FILE_PRE_REQUIRE, globalThis, 'integration', mocha);
  require('./commands.test');
  require('./servers.test');
  require('./roots.test');
  require('./log.test');
  require('./settings.test');
  require('./addServer.test');
  require('./trust.test');
}

/** Runs the suite once in this extension host. */
export async function runSuite(options: SuiteOptions = {}): Promise<SuiteResult> {
  const started = Date.now();
  const lines: string[] = [];
  const Base = Mocha.reporters.Base;
  const previous = Base.consoleLog;
  Base.consoleLog = (...args: unknown[]) => {
    const line = format(...args);
    lines.push(line);
    options.echo?.(line);
  };
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 180_000, ...(options.grep ? { grep: options.grep } : {}) });
  loadTests(mocha);
  const failures: SuiteResult['failures'] = [];
  const pending: string[] = [];
  let passes = 0;
  try {
    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      runner.on('pass', () => passes++);
      runner.on('pending', (t) => pending.push(t.fullTitle()));
      runner.on('fail', (t, err: Error) =>
        failures.push({ title: t.fullTitle(), message: String(err?.message ?? err), stack: err?.stack }),
      );
    });
  } finally {
    Base.consoleLog = previous;
  }
  return { passes, failures, pending, text: lines.join('\n'), durationMs: Date.now() - started, trusted: vscode.workspace.isTrusted };
}

/** `@vscode/test-electron`'s entry: runs the suite, prints the spec text, rejects if a test failed. */
export async function run(): Promise<void> {
  const r = await runSuite({ echo: (line) => console.log(line) });
  if (r.failures.length) throw new Error(`${r.failures.length} integration test(s) failed`);
}
