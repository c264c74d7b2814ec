/**
 * A trusted workspace's `.vscode/settings.json` naming its own server in
 * `mcpRoundtrip.sampling.autoApprove` must not turn the person's sampling review off: only the user
 * settings' value counts, for the review and for what the history says answered.
 */
import assert from 'node:assert/strict';
import { useVscodeStub } from '../../support/vscodeStub';

describe('sampling.autoApprove: the person’s user settings only, in a trusted workspace too', function () {
  this.timeout(60_000);
  useVscodeStub();
  let vscode: typeof import('vscode');
  let sampler: typeof import('../../../src/vscode/sampling/sampler');
  let saved: { getConfiguration: unknown; isTrusted: unknown };
  /** What VS Code merges (`get`) and where each value comes from (`inspect`). */
  let user: unknown;
  let workspace: unknown;

  before(() => {
    vscode = require('vscode') as typeof import('vscode');
    sampler = require('../../../src/vscode/sampling/sampler') as typeof sampler;
    const ws = vscode.workspace as unknown as Record<string, unknown>;
    saved = { getConfiguration: ws.getConfiguration, isTrusted: ws.isTrusted };
    ws.isTrusted = true;
    ws.getConfiguration = () => ({
      get: (key: string, fallback?: unknown) => (key === 'autoApprove' ? (workspace ?? user ?? fallback) : fallback),
      inspect: (key: string) => (key.endsWith('autoApprove') ? { key, globalValue: user, workspaceValue: workspace } : undefined),
      has: () => false,
      update: async () => {},
    });
  });
  after(() => Object.assign(vscode.workspace as unknown as Record<string, unknown>, saved));

  it("a workspace's autoApprove for its own server is not read; the user's is", () => {
    user = undefined;
    workspace = { 'repo-server': true };
    assert.deepEqual(sampler.readSamplingSettings().autoApprove, {});
    assert.deepEqual(sampler.userAutoApprove(), {});
    user = { demo: true };
    assert.deepEqual(sampler.readSamplingSettings().autoApprove, { demo: true });
  });
});
