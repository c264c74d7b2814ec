/** The SDK error mapping (src/core/connection/sdkErrors.ts), as a table: each failure, the HostError it becomes. */
import assert from 'node:assert/strict';
import { ProtocolError, SdkError } from '@modelcontextprotocol/client';
import { quotedStderr } from '../../../src/core/connection/diagnostics';
import {
  describeConnectFailure,
  mapListError,
  mapSdkError,
  networkFailure,
  spawnFailure,
  type FailureContext,
} from '../../../src/core/connection/sdkErrors';
import { HostError } from '../../../src/core/util/errors';

const ctx = (over: Partial<FailureContext> = {}): FailureContext => ({ server: 'demo', what: 'tools/call book_table', ...over });
const sdk = (code: string, message = 'boom') => new SdkError(code as ConstructorParameters<typeof SdkError>[0], message);
const aborted = (reason?: unknown) => {
  const ac = new AbortController();
  ac.abort(reason);
  return ac.signal;
};

describe('SDK errors as host errors', () => {
  const rows: { name: string; error: unknown; ctx: FailureContext; kind: string; message: string | RegExp; code?: number }[] = [
    { name: 'a HostError passes unchanged', error: new HostError('declined', 'no'), ctx: ctx(), kind: 'declined', message: 'no' },
    {
      name: 'an aborted signal with a HostError reason is that error',
      error: sdk('REQUEST_TIMEOUT'),
      ctx: ctx({ signal: aborted(new HostError('timeLimit', 'call over its limit')) }),
      kind: 'timeLimit',
      message: 'call over its limit',
    },
    {
      name: 'an aborted signal without one is a cancellation',
      error: new Error('AbortError'),
      ctx: ctx({ signal: aborted() }),
      kind: 'cancelled',
      message: 'tools/call book_table on demo was cancelled',
    },
    {
      name: 'a JSON-RPC error keeps its code',
      error: new ProtocolError(-32602, 'bad args'),
      ctx: ctx(),
      kind: 'server',
      message: /^demo answered tools\/call book_table with error -32602: .*bad args/,
      code: -32602,
    },
    {
      name: 'a request timeout is a time limit',
      error: sdk('REQUEST_TIMEOUT'),
      ctx: ctx(),
      kind: 'timeLimit',
      message: 'tools/call book_table on demo timed out',
    },
    {
      name: 'a closed connection names the last stderr line',
      error: sdk('CONNECTION_CLOSED'),
      ctx: ctx({ lastStderr: 'panic: out of memory' }),
      kind: 'connection',
      message: 'demo closed the connection during tools/call book_table (last stderr: panic: out of memory)',
    },
    {
      name: 'a closed connection names a transport report of the last 5 s',
      error: sdk('NOT_CONNECTED'),
      ctx: ctx({ lastUnreadable: { at: 10_000, message: 'message too\nlarge' }, now: 14_000 }),
      kind: 'connection',
      message: 'demo closed the connection during tools/call book_table; just before, the transport reported: message too large',
    },
    {
      name: 'an older transport report is not named',
      error: sdk('NOT_CONNECTED'),
      ctx: ctx({ lastUnreadable: { at: 10_000, message: 'old' }, now: 16_000 }),
      kind: 'connection',
      message: 'demo closed the connection during tools/call book_table',
    },
    {
      name: 'an unknown resultType is named',
      error: sdk('UNSUPPORTED_RESULT_TYPE'),
      ctx: ctx({ leg: { method: 'tools/call', rawResult: { resultType: 'partial' } } }),
      kind: 'protocol',
      message: 'demo answered tools/call book_table with an unknown resultType "partial" (expected "complete" or "input_required")',
    },
    {
      name: 'an invalid input_required names its real fault',
      error: sdk('INVALID_RESULT', 'Invalid result'),
      ctx: ctx({ leg: { method: 'tools/call', rawResult: { resultType: 'input_required', requestState: 7 } } }),
      kind: 'protocol',
      message: 'Malformed input_required result for tools/call book_table: requestState must be a string, got number',
    },
    {
      name: 'another invalid result keeps the SDK message',
      error: sdk('INVALID_RESULT', 'content: expected array'),
      ctx: ctx({ leg: { method: 'tools/call', rawResult: { resultType: 'complete' } } }),
      kind: 'protocol',
      message: 'demo sent an invalid result for tools/call book_table: content: expected array',
    },
    {
      name: 'any other SDK error names its code',
      error: sdk('SOMETHING_ELSE', 'odd'),
      ctx: ctx(),
      kind: 'protocol',
      message: 'tools/call book_table on demo failed (SOMETHING_ELSE): odd',
    },
    {
      name: 'anything else is a connection failure',
      error: new Error('ECONNREFUSED'),
      ctx: ctx(),
      kind: 'connection',
      message: 'tools/call book_table on demo failed: ECONNREFUSED',
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const e = mapSdkError(row.error, row.ctx);
      assert.ok(e instanceof HostError);
      assert.equal(e.kind, row.kind);
      if (typeof row.message === 'string') assert.equal(e.message, row.message);
      else assert.match(e.message, row.message);
      if (row.code !== undefined) assert.equal(e.code, row.code);
    });
  }

  it('a list answered with input_required is a protocol error of its own; other list failures map as above', () => {
    const e = mapListError(sdk('UNSUPPORTED_RESULT_TYPE', 'resultType input_required is not supported here'), ctx({ what: 'tools/list' }));
    assert.equal(e.message, 'demo answered tools/list with input_required, which only tools/call, prompts/get and resources/read may do');
    assert.equal(mapListError(sdk('REQUEST_TIMEOUT'), ctx({ what: 'tools/list' })).message, 'tools/list on demo timed out');
  });
});

describe('the stderr lines quoted when a server could not be reached', () => {
  it("a Node crash is quoted by its error line and its last line, not by its stack's tail", () => {
    const crash = [
      'node:internal/modules/cjs/loader:1228',
      '  throw err;',
      '  ^',
      '',
      "Error: Cannot find module '/tmp/nope.js'",
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
      '    at node:internal/main/run_main_module:28:49 {',
      "  code: 'MODULE_NOT_FOUND',",
      '  requireStack: []',
      '}',
      '',
      'Node.js v20.20.2',
    ];
    assert.deepEqual(quotedStderr(crash), ["Error: Cannot find module '/tmp/nope.js'", 'Node.js v20.20.2']);
  });

  it('without an error line: the last three lines that are not blank', () => {
    assert.deepEqual(quotedStderr(['a', 'b', '', 'c', 'd', '']), ['b', 'c', 'd']);
  });
});

describe('why an HTTP server could not be reached', () => {
  const fetchFailed = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });
  it('names the network error under fetch failed (and the SDK wrapping it), with the address', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:39999'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
      address: '127.0.0.1',
      port: 39999,
    });
    const probe = Object.assign(new Error('Version negotiation probe failed: fetch failed'), {
      code: 'ERA_NEGOTIATION_FAILED',
      cause: fetchFailed(refused),
    });
    assert.equal(networkFailure(probe), 'nothing listens there (connection refused) (ECONNREFUSED at 127.0.0.1:39999)');
    assert.equal(
      networkFailure(
        fetchFailed(Object.assign(new Error('getaddrinfo ENOTFOUND x.invalid'), { code: 'ENOTFOUND', syscall: 'getaddrinfo' })),
      ),
      'the host name is not known (DNS) (ENOTFOUND)',
    );
    assert.equal(networkFailure(fetchFailed(new Error('bad port'))), 'the request could not be made: bad port');
  });

  it("is silent for what is not the network's (an SDK code, a plain error)", () => {
    assert.equal(networkFailure(Object.assign(new Error('x'), { code: 'ERA_NEGOTIATION_FAILED' })), undefined);
    assert.equal(networkFailure(new Error('boom')), undefined);
  });
});

describe('why a stdio server could not be started', () => {
  // What Node's spawn emits for a command that is not there, and for a file that is not executable.
  const spawnError = (code: string, command: string) =>
    Object.assign(new Error(`spawn ${command} ${code}`), { code, errno: -2, syscall: `spawn ${command}`, path: command, spawnargs: [] });

  it('names the command and what the system said, not a network error', () => {
    assert.equal(
      describeConnectFailure(spawnError('ENOENT', '/no/such/bin')),
      'its command /no/such/bin could not be started: it was not found (check the command and the PATH) (ENOENT)',
    );
    assert.equal(
      describeConnectFailure(spawnError('EACCES', '/tmp/x')),
      'its command /tmp/x could not be started: it is not allowed to run (check that the file is executable) (EACCES)',
    );
    assert.equal(networkFailure(spawnError('ENOENT', '/no/such/bin')), undefined);
  });

  it('says "its command" when the error names none (a start that threw, before the transport named it)', () => {
    assert.equal(
      spawnFailure(Object.assign(new Error('spawn ENOTDIR'), { code: 'ENOTDIR', syscall: 'spawn' })),
      'its command could not be started: part of its path is a file, not a folder (ENOTDIR)',
    );
  });

  it('is silent for errors that are not a failed start', () => {
    assert.equal(spawnFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', syscall: 'connect' })), undefined);
    assert.equal(spawnFailure(new Error('boom')), undefined);
  });
});
