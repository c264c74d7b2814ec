/** Wires a scripted server to the host in memory: a `custom` ServerSpec plus the recorded traffic. */
import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { ConnectionOptions } from '../../src/core/connection/connectionOptions';
import { ServerConnection } from '../../src/core/connection/serverConnection';
import type { EraSetting } from '../../src/core/connection/serverSpec';
import { scriptedHandler, type Json, type Script } from './scripted';

export interface ScriptedConnection {
  conn: ServerConnection;
  /** Every message the host wrote, parsed. */
  received: Json[];
  /** Requests of one method the host wrote, in order. */
  requests(method: string): Json[];
  /** Close the server side (simulates the server going away). */
  kill(): Promise<void>;
}

/** A connection to an in-memory scripted server (`opts.startDelayMs`: its transport opens that many ms late). */
export function scriptedConnection(
  script: Script,
  options: ConnectionOptions,
  opts: { legacy?: boolean; era?: EraSetting; startDelayMs?: number } = {},
): ScriptedConnection {
  const received: Json[] = [];
  let serverSide: InMemoryTransport | undefined;
  const conn = new ServerConnection(
    {
      transport: 'custom',
      name: 'scripted',
      era: opts.era,
      create: () => {
        const [client, server] = InMemoryTransport.createLinkedPair();
        serverSide = server;
        const h = scriptedHandler((m) => void server.send(m), script, { legacy: opts.legacy, onExit: () => void server.close() });
        server.onmessage = (m) => {
          received.push(m);
          void h.handle(m);
        };
        void server.start();
        // A server slow to start (a spawn on a busy machine): the client's transport opens this much later.
        const delay = opts.startDelayMs;
        if (delay) {
          const start = client.start.bind(client);
          client.start = () => new Promise<void>((resolve) => setTimeout(resolve, delay)).then(start);
        }
        return client;
      },
    },
    options,
  );
  return {
    conn,
    received,
    requests: (method) => received.filter((m) => m.method === method && m.id !== undefined),
    kill: async () => void (await serverSide?.close()),
  };
}
