// Test-only extension: once the workbench has started, runs the integration suite bundled at
// ./dist/suite.js (test/integration/run.mjs copies it in) with mocha, and writes the result as JSON
// to $MCP_RT_INTEGRATION_RESULT: { passes, failures: [{title, message, stack}], pending, text, durationMs, trusted }.
// Does nothing when that variable is not set.
const fs = require('node:fs');
const path = require('node:path');

/** Writes `result` to `file` in one step (a reader never sees half a file). */
function writeResult(file, result) {
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(result, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

/** Starts the suite (not awaited: activation returns at once) and reports its result to the runner. */
exports.activate = function activate() {
  const file = process.env.MCP_RT_INTEGRATION_RESULT;
  if (!file) return;
  void (async () => {
    try {
      const suite = require(path.join(__dirname, 'dist', 'suite.js'));
      writeResult(file, await suite.runSuite({ grep: process.env.MCP_RT_INTEGRATION_GREP || undefined }));
    } catch (e) {
      writeResult(file, {
        passes: 0,
        failures: [{ title: 'integration runner', message: String((e && e.stack) || e) }],
        pending: [],
        text: '',
        crashed: true,
      });
    }
  })();
};

/** Nothing to clean up. */
exports.deactivate = function deactivate() {};
