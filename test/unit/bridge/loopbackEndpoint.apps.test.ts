/**
 * MCP Apps through the bridge, as VS Code's own MCP client meets it (a 2025-11-25 client over the
 * loopback endpoint): a tool's `_meta.ui` passes through tools/list unchanged, and the app document it
 * names (a `ui://` resource, with its own `_meta.ui`) is read through the bridge unchanged, so VS Code's
 * chat renders the app itself; any other resource is refused.
 */
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { BridgeTarget } from '../../../src/core/bridge/bridgeServer';
import { LoopbackEndpoint } from '../../../src/core/bridge/loopbackEndpoint';

const UI = { resourceUri: 'ui://get-time/mcp-app.html', visibility: ['model', 'app'] };
const TOOL = {
  name: 'get-time',
  description: 'Returns the current server time.',
  inputSchema: { type: 'object', properties: {} },
  _meta: { ui: UI, 'ui/resourceUri': UI.resourceUri },
};
const DOC = {
  contents: [
    {
      uri: UI.resourceUri,
      mimeType: 'text/html;profile=mcp-app',
      text: '<!doctype html><title>Get Time</title>',
      _meta: { ui: { csp: { connectDomains: [] }, prefersBorder: true } },
    },
  ],
};

describe('bridge loopback endpoint: MCP Apps pass through', function () {
  this.timeout(30_000);

  it('keeps _meta.ui on the listed tool and reads its ui:// document unchanged; other resources are refused', async () => {
    const read: string[] = [];
    const target: BridgeTarget = {
      name: 'basic',
      listTools: () => Promise.resolve([TOOL]),
      callTool: () => Promise.resolve({ content: [] }),
      readAppResource: (uri) => (read.push(uri), Promise.resolve(DOC)),
    };
    const endpoint = await LoopbackEndpoint.start({ version: '1', target: (id) => (id === 'basic' ? target : undefined) });
    const client = new Client({ name: 'vscode-like', version: '1.139.1' }, { capabilities: {} });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint.url('basic')), {
        requestInit: { headers: { Authorization: `Bearer ${endpoint.mintToken()}` } },
      }),
    );
    try {
      const [listed] = (await client.listTools()).tools;
      assert.deepEqual(listed._meta, TOOL._meta);
      assert.deepEqual(client.getServerCapabilities()?.resources, {});

      const doc = await client.readResource({ uri: UI.resourceUri });
      assert.deepEqual(doc.contents, DOC.contents);
      await assert.rejects(client.readResource({ uri: 'file:///etc/passwd' }), /only ui:\/\/ resources are offered/);
      assert.deepEqual(read, [UI.resourceUri]);
    } finally {
      await client.close();
      await endpoint.close();
    }
  });
});
