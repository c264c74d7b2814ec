/** Reading a configuration file (src/vscode/shared/configFile.ts): its size before its bytes, and no silent absence. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useVscodeStub } from '../../support/vscodeStub';
import { MAX_CONFIG_FILE_BYTES } from '../../../src/core/util/jsonc';

describe('readConfigFile', () => {
  useVscodeStub();
  let read: typeof import('../../../src/vscode/shared/configFile').readConfigFile;
  let vscode: typeof import('vscode');
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-roundtrip-config-'));
  const reads: string[] = [];

  before(() => {
    vscode = require('vscode') as typeof import('vscode');
    ({ readConfigFile: read } = require('../../../src/vscode/shared/configFile') as typeof import('../../../src/vscode/shared/configFile'));
    // The file system as VS Code's: a missing file is FileNotFound; every byte read is counted.
    (vscode.workspace as { fs: unknown }).fs = {
      stat: async (uri: { fsPath: string }) => {
        try {
          return { type: 1, size: statSync(uri.fsPath).size };
        } catch {
          throw vscode.FileSystemError.FileNotFound(uri.fsPath);
        }
      },
      readFile: async (uri: { fsPath: string }) => {
        reads.push(uri.fsPath);
        if (uri.fsPath.endsWith('locked.json')) throw new Error('EACCES: permission denied');
        return readFileSync(uri.fsPath);
      },
    };
  });

  it('a missing file is nothing to read; a present one is its text', async () => {
    assert.deepEqual(await read(vscode.Uri.file(path.join(dir, 'none.json'))), { kind: 'missing' });
    const file = path.join(dir, 'mcp.json');
    writeFileSync(file, '{"servers": {}}');
    assert.deepEqual(await read(vscode.Uri.file(file)), { kind: 'text', text: '{"servers": {}}' });
  });

  it('a file past the size bound is refused before any byte is read, naming it and its size', async () => {
    const file = path.join(dir, 'huge.json');
    writeFileSync(file, '');
    truncateSync(file, MAX_CONFIG_FILE_BYTES + 1);
    reads.length = 0;
    assert.deepEqual(await read(vscode.Uri.file(file)), {
      kind: 'problem',
      problem: `${file}: ${MAX_CONFIG_FILE_BYTES + 1} bytes, larger than the limit of ${MAX_CONFIG_FILE_BYTES} bytes; not read`,
    });
    assert.deepEqual(reads, []);
  });

  it('a file that cannot be read is a problem naming it, not an absence', async () => {
    const file = path.join(dir, 'locked.json');
    writeFileSync(file, '{}');
    const r = await read(vscode.Uri.file(file));
    assert.deepEqual(r, { kind: 'problem', problem: `${file}: could not be read (EACCES: permission denied)` });
  });
});
