// The workspace both integration runners open: a folder whose `.vscode/mcp.json` defines
// `workspace-demo` and whose `.vscode/settings.json` defines `ws-settings-demo` (both the demo server).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Creates the workspace in a new temporary folder.
 * @param {{ demoServer: string, node?: string }} options
 *   demoServer: path of the built `demo-server.js`; node: the Node that runs it (default: this one)
 * @returns {string} the folder
 */
export function makeIntegrationWorkspace({ demoServer, node = process.execPath }) {
  const ws = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-integration-ws-'));
  const demo = { type: 'stdio', command: node, args: [demoServer] };
  mkdirSync(path.join(ws, '.vscode'));
  writeFileSync(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers: { 'workspace-demo': demo } }, null, 2) + '\n');
  writeFileSync(
    path.join(ws, '.vscode', 'settings.json'),
    JSON.stringify({ 'mcpRoundtrip.servers': { 'ws-settings-demo': demo } }, null, 2) + '\n',
  );
  writeFileSync(path.join(ws, 'README.md'), '# Integration test workspace\n');
  return ws;
}
