/**
 * The VS Code host advertises MCP Apps to servers while `mcpRoundtrip.apps.enabled` is on (the default),
 * read at each connection, and not once it is off (src/vscode/inputs/inputProvider.ts).
 */
import assert from 'node:assert/strict';
import type * as vscodeTypes from 'vscode';
import type { InputUi } from '../../../src/vscode/roundPanel/inputUi';
import type { Sampler } from '../../../src/vscode/sampling/sampler';
import type { RoundTripLog } from '../../../src/vscode/shared/roundTripLog';
import { useVscodeStub } from '../../support/vscodeStub';

describe('MCP Apps: the setting mcpRoundtrip.apps.enabled', () => {
  useVscodeStub();

  it('on by default: the capability carries the extension; off: it does not, and other capabilities stay', () => {
    const vscode = require('vscode') as typeof vscodeTypes;
    const { vscodeInputs } =
      require('../../../src/vscode/inputs/inputProvider') as typeof import('../../../src/vscode/inputs/inputProvider');
    const provider = vscodeInputs({} as InputUi, { capability: undefined } as unknown as Sampler, {} as RoundTripLog);
    const ext = () => (provider.capabilities as { extensions?: Record<string, unknown> }).extensions?.['io.modelcontextprotocol/ui'];
    assert.deepEqual(ext(), { mimeTypes: ['text/html;profile=mcp-app'], elicitation: {} });
    const original = vscode.workspace.getConfiguration;
    const seen: string[] = [];
    (vscode.workspace as { getConfiguration: unknown }).getConfiguration = (section: string) => ({
      get: (key: string, fallback: unknown) => (seen.push(`${section}.${key}`), key === 'apps.enabled' ? false : fallback),
    });
    try {
      assert.equal(ext(), undefined);
      assert.deepEqual(seen, ['mcpRoundtrip.apps.enabled']);
      assert.deepEqual(provider.capabilities.elicitation, { form: {}, url: {} });
    } finally {
      (vscode.workspace as { getConfiguration: unknown }).getConfiguration = original;
    }
  });
});
