/**
 * A misbehaving-on-purpose MCP server for tests: answers JSON-RPC by a script, records every
 * message the host wrote. Speaks the modern era (server/discover) unless `legacy` is set.
 * Used in memory (InMemoryTransport) and over stdio (test/fixtures/scriptedServer.ts).
 */
export type Json = any;

/** What a script returns for one request: a result, an error, or an instruction. */
export type Reply = { result: Json } | { error: { code: number; message: string; data?: Json } } | { exit: number } | { silent: true };

/** What a script may send the host on its own: a request (a 2025-era push; resolves to its response) or a notification. */
export interface ServerSide {
  request(method: string, params: Json): Promise<Json>;
  notify(method: string, params: Json): void;
  /** Writes `message` as it is: e.g. a result in the same turn as a notification (the script then returns `silent`). */
  send(message: Json): void;
}

/**
 * A script answers MRTR-method requests; `n` counts requests of that method so far (1-based); `server`
 * sends requests and notifications of its own while the script works (a 2025-era server's pushes, progress).
 */
export type Script = (msg: Json, n: number, all: Json[], server: ServerSide) => Reply | Promise<Reply>;

export const DISCOVER_RESULT = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {}, prompts: {}, resources: {} },
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '1.0.0' } },
};

/**
 * Build the message handler of a scripted server.
 * @param send writes one message to the host
 * @param script answers tools/call, prompts/get, resources/read (and anything not built in)
 * @param opts.legacy answer like a 2025 server (no server/discover; initialize handshake)
 */
export function scriptedHandler(send: (m: Json) => void, script: Script, opts: { legacy?: boolean; onExit?: (code: number) => void } = {}) {
  const received: Json[] = [];
  const counts = new Map<string, number>();
  const pending = new Map<string, (response: Json) => void>();
  let pushes = 0;
  const server: ServerSide = {
    request: (method, params) => {
      const id = `push-${++pushes}`;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        send({ jsonrpc: '2.0', id, method, params });
      });
    },
    notify: (method, params) => send({ jsonrpc: '2.0', method, params }),
    send,
  };
  const handle = async (msg: Json) => {
    received.push(msg);
    if (msg.id !== undefined && msg.method === undefined) pending.get(String(msg.id))?.(msg); // a response to a push
    if (msg.id === undefined || msg.method === undefined) return; // notifications, responses
    const reply = (r: Reply) => {
      if ('result' in r) send({ jsonrpc: '2.0', id: msg.id, result: r.result });
      else if ('error' in r) send({ jsonrpc: '2.0', id: msg.id, error: r.error });
      else if ('exit' in r) opts.onExit?.(r.exit);
    };
    if (msg.method === 'server/discover') {
      return reply(opts.legacy ? { error: { code: -32601, message: 'Method not found' } } : { result: DISCOVER_RESULT });
    }
    if (msg.method === 'initialize') {
      return reply({
        result: {
          protocolVersion: msg.params.protocolVersion,
          capabilities: { tools: {}, prompts: {}, resources: {} },
          serverInfo: { name: 'scripted-legacy', version: '1.0.0' },
        },
      });
    }
    if (msg.method === 'tools/list') return reply({ result: { tools: [{ name: 'x', inputSchema: { type: 'object' } }] } });
    const n = (counts.get(msg.method) ?? 0) + 1;
    counts.set(msg.method, n);
    reply(await script(msg, n, received, server));
  };
  return { handle, received };
}

/** An `input_required` result with one trivial form elicitation under `key`. */
export function askName(key: string, requestState?: string): Reply {
  return {
    result: {
      resultType: 'input_required',
      inputRequests: {
        [key]: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
      },
      ...(requestState === undefined ? {} : { requestState }),
    },
  };
}

export const done = (text = 'done'): Reply => ({ result: { resultType: 'complete', content: [{ type: 'text', text }] } });
