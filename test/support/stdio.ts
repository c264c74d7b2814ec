/** Starts test/fixtures/scriptedServer.ts as a real child process over stdio, recording raw lines. */
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionOptions } from '../../src/core/connection/connectionOptions';
import { ServerConnection } from '../../src/core/connection/serverConnection';
import type { EraSetting } from '../../src/core/connection/serverSpec';

const TSX = join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx');
const SERVER = join(__dirname, '..', 'fixtures', 'scriptedServer.ts');

export function stdioScripted(
  scenario: string,
  options: ConnectionOptions,
  opts: { legacy?: boolean; era?: EraSetting; env?: Record<string, string> } = {},
) {
  const record = join(mkdtempSync(join(tmpdir(), 'mcp-rt-')), 'wire.jsonl');
  const conn = new ServerConnection(
    {
      transport: 'stdio',
      name: `scripted-${scenario}`,
      command: TSX,
      args: [SERVER, scenario, ...(opts.legacy ? ['--legacy'] : [])],
      env: { RECORD_FILE: record, ...(opts.env ?? {}) },
      era: opts.era,
    },
    options,
  );
  return {
    conn,
    /** The raw lines the host wrote, in order. */
    lines: (): string[] => (existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : []),
  };
}
