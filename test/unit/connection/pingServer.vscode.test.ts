/**
 * VS Code's Ping Server (src/vscode/commands/pingServer.ts) under the `vscode` stand-in: the palette's
 * (a server picked) and the Servers view's (the server given) say the core's line in an information
 * message and the log; a server that fails is said as an error naming it.
 */
import assert from 'node:assert/strict';
import { NO_INPUTS } from '../../../src/core/inputs/inputProvider';
import type { ServerConnection } from '../../../src/core/connection/serverConnection';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';
import { scriptedConnection } from '../../support/inMemory';
import { useVscodeStub } from '../../support/vscodeStub';

describe('Ping Server in VS Code', function () {
  this.timeout(20_000);
  useVscodeStub();
  let vscode: Record<string, any>;
  let command: typeof import('../../../src/vscode/commands/pingServer');
  const saved: Record<string, unknown> = {};
  let infos: string[];
  let errors: string[];

  before(() => {
    vscode = require('vscode') as Record<string, any>;
    command = require('../../../src/vscode/commands/pingServer') as typeof command;
    for (const k of ['showInformationMessage', 'showErrorMessage', 'withProgress']) saved[k] = vscode.window[k];
    Object.assign(vscode.window, {
      showInformationMessage: async (m: string) => void infos.push(m),
      showErrorMessage: async (m: string) => void errors.push(m),
      withProgress: async () => undefined,
    });
  });
  after(() => Object.assign(vscode.window, saved));
  beforeEach(() => {
    infos = [];
    errors = [];
  });

  const entry = { name: 'everything', def: { source: { kind: 'settings', location: 'settings' } } } as unknown as ServerEntry;
  function deps(conn: ServerConnection | Error) {
    const logged: string[] = [];
    let touched = 0;
    return {
      logged,
      touched: () => touched,
      deps: {
        registry: {
          list: () => [entry],
          connection: async () => {
            if (conn instanceof Error) throw conn;
            return conn;
          },
          touch: () => void touched++,
        },
        log: { info: (l: string) => void logged.push(l), warn: (l: string) => void logged.push(`warn: ${l}`) },
      } as never,
    };
  }

  it("the view's server: a 2025-era server's round-trip time in a notification and the log", async () => {
    const s = scriptedConnection(() => ({ result: {} }), { provider: NO_INPUTS }, { legacy: true });
    try {
      const d = deps(s.conn);
      await command.pingServer(d.deps, entry);
      assert.equal(s.requests('ping').length, 1);
      assert.equal(errors.length, 0, errors.join());
      assert.match(infos[0], /^pong from everything in \d+ ms\.$/);
      assert.match(d.logged[0], /^pong from everything in \d+ ms$/);
      assert.equal(d.touched(), 1, 'the Servers view is refreshed (the connection may be new)');
    } finally {
      await s.conn.close();
    }
  });

  it('from the palette: the server is picked; a 2026-07-28 one answered server/discover', async () => {
    const s = scriptedConnection(() => ({ result: {} }), { provider: NO_INPUTS });
    try {
      const d = deps(s.conn);
      const picks = vscode.__quickPicks as {
        items: { entry: ServerEntry }[];
        options: { placeHolder: string };
        answer(i: unknown): void;
      }[];
      const before = picks.length;
      const done = command.pingServer(d.deps);
      await new Promise<void>((r) => setImmediate(r));
      const pick = picks[before];
      assert.equal(pick.options.placeHolder, 'Ping which server?');
      pick.answer(pick.items[0]);
      await done;
      assert.equal(s.requests('ping').length, 0);
      assert.deepEqual(infos, ['everything speaks 2026-07-28, which has no ping: it answered server/discover when connecting.']);
    } finally {
      await s.conn.close();
    }
  });

  it('a server that cannot be reached: an error naming it, nothing thrown', async () => {
    const d = deps(new Error('spawn nope ENOENT'));
    await command.pingServer(d.deps, entry);
    assert.deepEqual(infos, []);
    assert.deepEqual(errors, ['everything: spawn nope ENOENT']);
  });
});
