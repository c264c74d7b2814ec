/**
 * In an untrusted workspace, VS Code gives the extension only the user's values of the restricted
 * settings: a repository's .vscode/settings.json must not start its servers, skip the sampling review,
 * log every message (typed values, requestState) or make the history keep what the person types.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));

describe('manifest: settings a workspace cannot set until it is trusted', () => {
  it('servers, sampling.autoApprove, log.wire and history.keepValues are restricted, and each is a setting the extension contributes', () => {
    const restricted: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    const contributed = Object.keys(manifest.contributes.configuration.properties ?? {}).concat(
      ...[].concat(manifest.contributes.configuration).map((c: { properties?: object }) => Object.keys(c.properties ?? {})),
    );
    for (const key of [
      'mcpRoundtrip.servers',
      'mcpRoundtrip.sampling.autoApprove',
      'mcpRoundtrip.log.wire',
      'mcpRoundtrip.history.keepValues',
    ]) {
      assert.ok(restricted.includes(key), `${key} is not restricted`);
      assert.ok(contributed.includes(key), `${key} is not a contributed setting (a typo would restrict nothing)`);
    }
  });
});
