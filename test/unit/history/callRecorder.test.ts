/**
 * The history entry of a call, built from a real MRTR call against a scripted server: rounds, what
 * each asked and how it was answered, and what is never kept (a password field's value, a
 * `requestState`, secret arguments, values at all unless allowed), also when the server echoes them.
 */
import assert from 'node:assert/strict';
import { CallRecorder } from '../../../src/core/history/callRecorder';
import { MAX_KEPT_RESULT_CHARS } from '../../../src/core/history/keptContent';
import { MAX_MASKED_SECRETS, REDACTED, SecretMask } from '../../../src/core/history/secrets';
import type { HostEvent } from '../../../src/core/log/events';
import { formatEvent } from '../../../src/core/log/traceLog';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { HostError } from '../../../src/core/util/errors';
import { scriptedConnection } from '../../support/inMemory';
import { scriptedProvider } from '../../support/providers';
import { done, type Json, type Reply } from '../../support/scripted';

const PASSWORD = 'hunter2-Pa55word!';
const PIN = '9876';
const STATE = 'STATE-do-not-keep-0123456789';
const API_KEY = 'sk-live-abcdef123456';

const LOGIN_FORM = {
  type: 'object',
  properties: {
    user: { type: 'string', title: 'User name' },
    password: { type: 'string', title: 'Password', format: 'password' },
    code: { type: 'string', title: 'One-time code', writeOnly: true },
    remember: { type: 'boolean', title: 'Remember me' },
  },
  required: ['user', 'password'],
};

/** Round 1: a login form (with a state); round 2: sampling; then a result that echoes every secret it got. */
let got: Record<string, string> = {};
function loginServer(msg: Json, n: number): Reply {
  if (n === 2) got = msg.params.inputResponses?.login?.content ?? {};
  if (n === 1)
    return {
      result: {
        resultType: 'input_required',
        inputRequests: {
          login: { method: 'elicitation/create', params: { mode: 'form', message: 'Sign in', requestedSchema: LOGIN_FORM } },
        },
        requestState: STATE,
      },
    };
  if (n === 2)
    return {
      result: {
        resultType: 'input_required',
        inputRequests: {
          summary: {
            method: 'sampling/createMessage',
            params: {
              messages: [{ role: 'user', content: { type: 'text', text: 'Summarise' } }],
              maxTokens: 50,
              modelPreferences: { hints: [{ name: 'sonnet' }] },
            },
          },
        },
        requestState: `${STATE}-2`,
      },
    };
  return {
    result: {
      resultType: 'complete',
      content: [{ type: 'text', text: `Signed in as ${got.user} with ${got.password} (key ${msg.params.arguments.apiKey})` }],
      structuredContent: { echo: { password: got.password, code: got.code }, [`key-${API_KEY}`]: true },
    },
  };
}

const ANSWERS = {
  login: { action: 'accept', content: { user: 'ada', password: PASSWORD, code: PIN, remember: true } },
  summary: { role: 'assistant', content: { type: 'text', text: 'A summary' }, model: 'test-sonnet-4', stopReason: 'endTurn' },
};

async function recordLogin(keepValues: boolean) {
  const events: HostEvent[] = [];
  const s = scriptedConnection((msg, n) => loginServer(msg, n), { provider: scriptedProvider({}) });
  const recorder = new CallRecorder({
    id: 'h-test',
    server: 'scripted',
    method: 'tools/call',
    target: 'login',
    params: { name: 'login', arguments: { account: 'main', apiKey: API_KEY } },
    argumentsSchema: { type: 'object', properties: { account: { type: 'string' } } },
    keepValues,
  });
  const r = await callWithRoundTrips(
    s.conn,
    'tools/call',
    { name: 'login', arguments: { account: 'main', apiKey: API_KEY } },
    {
      provider: recorder.provider(scriptedProvider(ANSWERS)),
      historyId: recorder.id,
      onEvent: (e) => (events.push(e), recorder.onEvent(e)),
    },
  );
  await s.conn.close();
  return { record: recorder.finish(r.result, 'modern'), events, result: r.result };
}

describe('history: the entry of a call (CallRecorder)', () => {
  it('keeps each round: what it asked (kinds, keys, fields, model hints) and how it was answered (action, fields, by whom, timings)', async () => {
    const { record } = await recordLogin(false);
    assert.equal(record.status, 'complete');
    assert.equal(record.era, 'modern');
    assert.deepEqual(
      record.rounds.map((r) => r.round),
      [1, 2],
    );
    const [login] = record.rounds[0].inputs;
    assert.equal(login.key, 'login');
    assert.equal(login.method, 'elicitation/create');
    assert.equal(login.message, 'Sign in');
    assert.deepEqual(
      login.fields!.map((f) => [f.key, f.label, f.type, f.required, f.secret]),
      [
        ['user', 'User name', 'string', true, false],
        ['password', 'Password', 'password', true, true],
        ['code', 'One-time code', 'string', false, true],
        ['remember', 'Remember me', 'boolean', false, false],
      ],
    );
    assert.equal(login.answer!.action, 'accept');
    assert.deepEqual(login.answer!.fields, ['user', 'password', 'code', 'remember']);
    assert.equal(login.answer!.by, 'you');
    assert.ok(login.answer!.waitedMs >= 0);
    const [summary] = record.rounds[1].inputs;
    assert.deepEqual(summary.modelHints, ['sonnet']);
    assert.equal(summary.maxTokens, 50);
    assert.equal(summary.answer!.model, 'test-sonnet-4');
    assert.equal(summary.answer!.by, 'you (reviewed)');
    assert.deepEqual(record.rounds[0].state, { present: true, length: STATE.length });
  });

  it('never keeps a password or writeOnly value, a requestState or a secret argument, even echoed by the server; and no value at all by default', async () => {
    const { record, events, result } = await recordLogin(false);
    assert.ok(JSON.stringify(result).includes(PASSWORD), 'the server did echo the password');
    const json = JSON.stringify(record);
    for (const secret of [PASSWORD, PIN, STATE, API_KEY]) assert.ok(!json.includes(secret), `the entry holds ${secret}`);
    assert.equal(record.rounds[0].inputs[0].answer!.values, undefined);
    assert.deepEqual(record.arguments, { account: 'main' });
    assert.deepEqual(record.omittedArguments, ['apiKey']);
    assert.match((record.result!.content as { text: string }[])[0].text, new RegExp(`with \\${REDACTED.slice(0, -1)}\\]`));
    // The log lines of the same call hold none of them either.
    const log = events.map((e) => formatEvent(e)?.text ?? '').join('\n');
    for (const secret of [PASSWORD, PIN, STATE, API_KEY]) assert.ok(!log.includes(secret), `a log line holds ${secret}`);
    assert.match(log, /\(flow \d+, history h-test\)/);
  });

  it('tells the log each secret value as it is given, so a server echoing it (stderr, an error) is masked', async () => {
    const mask = new SecretMask();
    const s = scriptedConnection((msg, n) => loginServer(msg, n), { provider: scriptedProvider({}) });
    const recorder = new CallRecorder({
      id: 'hm',
      server: 'scripted',
      method: 'tools/call',
      target: 'login',
      params: { name: 'login', arguments: { apiKey: API_KEY } },
      onSecrets: (v) => mask.add(v),
    });
    assert.equal(mask.apply(`key ${API_KEY}`), `key ${REDACTED}`, 'a secret argument is masked before the call is sent');
    await callWithRoundTrips(
      s.conn,
      'tools/call',
      { name: 'login', arguments: { apiKey: API_KEY } },
      { provider: recorder.provider(scriptedProvider(ANSWERS)), onEvent: recorder.onEvent },
    );
    await s.conn.close();
    assert.equal(mask.apply(`stderr: signing in with ${PASSWORD}, code ${PIN}`), `stderr: signing in with ${REDACTED}, code ${REDACTED}`);
    assert.equal(mask.apply('ada signed in'), 'ada signed in', 'a value of a field that is not secret stays');
    const many = new SecretMask();
    many.add(Array.from({ length: MAX_MASKED_SECRETS + 5 }, (_, i) => `secret-${i}`));
    assert.equal(many.apply('secret-0'), 'secret-0', 'the oldest are forgotten');
    assert.equal(many.apply(`secret-${MAX_MASKED_SECRETS + 4}`), REDACTED);
    many.add(['abc']);
    assert.equal(many.apply('abc'), 'abc', 'too short to search for');
  });

  it("keeps typed values only when allowed, and still never a secret field's", async () => {
    const { record } = await recordLogin(true);
    assert.deepEqual(record.rounds[0].inputs[0].answer!.values, { user: 'ada', remember: true });
    const json = JSON.stringify(record);
    for (const secret of [PASSWORD, PIN, STATE, API_KEY]) assert.ok(!json.includes(secret), `the entry holds ${secret}`);
  });

  it('server-chosen keys such as "__proto__" stay plain keys in the kept arguments and values', async () => {
    const form = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string","title":"Proto"},"constructor":{"type":"string"}}}',
    );
    const s = scriptedConnection(
      (msg, n) =>
        n === 1
          ? {
              result: {
                resultType: 'input_required',
                inputRequests: { f: { method: 'elicitation/create', params: { mode: 'form', message: 'x', requestedSchema: form } } },
              },
            }
          : done('ok'),
      { provider: scriptedProvider({}) },
    );
    const args = JSON.parse('{"__proto__":{"polluted":true},"n":1}');
    const recorder = new CallRecorder({
      id: 'hp',
      server: 'scripted',
      method: 'tools/call',
      target: 't',
      params: { name: 't', arguments: args },
      keepValues: true,
    });
    const answer = { action: 'accept', content: JSON.parse('{"__proto__":"own","constructor":"c"}') };
    const r = await callWithRoundTrips(
      s.conn,
      'tools/call',
      { name: 't', arguments: args },
      { provider: recorder.provider(scriptedProvider({ f: answer })), onEvent: recorder.onEvent },
    );
    const record = recorder.finish(r.result);
    assert.deepEqual(Object.keys(record.arguments!), ['__proto__', 'n']);
    assert.equal(Object.getPrototypeOf(record.arguments), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const values = record.rounds[0].inputs[0].answer!.values!;
    assert.deepEqual(Object.keys(values), ['__proto__', 'constructor']);
    assert.equal(Object.getOwnPropertyDescriptor(values, '__proto__')!.value, 'own');
    await s.conn.close();
  });

  it('records a declined input, a cancelled call and its error line', async () => {
    const s = scriptedConnection(
      (msg, n) =>
        n === 1
          ? {
              result: {
                resultType: 'input_required',
                inputRequests: {
                  q: {
                    method: 'elicitation/create',
                    params: { mode: 'form', message: 'Why?', requestedSchema: { type: 'object', properties: { why: { type: 'string' } } } },
                  },
                },
              },
            }
          : done('ok'),
      { provider: scriptedProvider({}) },
    );
    const recorder = new CallRecorder({
      id: 'h1',
      server: 'scripted',
      method: 'tools/call',
      target: 't',
      params: { name: 't', arguments: {} },
    });
    const ac = new AbortController();
    const provider = scriptedProvider({ q: () => (ac.abort(), new Promise(() => {})) });
    await assert.rejects(
      callWithRoundTrips(
        s.conn,
        'tools/call',
        { name: 't', arguments: {} },
        { provider: recorder.provider(provider), signal: ac.signal, onEvent: recorder.onEvent },
      ),
      (e: unknown) => e instanceof HostError && e.kind === 'cancelled',
    );
    const record = recorder.finish(undefined, 'modern');
    assert.equal(record.status, 'cancelled');
    assert.match(record.error!, /cancelled/);
    assert.equal(record.rounds.length, 1);

    const s2 = scriptedConnection(
      (msg, n) =>
        n === 1
          ? {
              result: {
                resultType: 'input_required',
                inputRequests: {
                  q: {
                    method: 'elicitation/create',
                    params: { mode: 'form', message: 'Why?', requestedSchema: { type: 'object', properties: {} } },
                  },
                },
              },
            }
          : done('ok'),
      { provider: scriptedProvider({}) },
    );
    const r2 = new CallRecorder({ id: 'h2', server: 'scripted', method: 'tools/call', target: 't', params: { name: 't', arguments: {} } });
    const res = await callWithRoundTrips(
      s2.conn,
      'tools/call',
      { name: 't', arguments: {} },
      { provider: r2.provider(scriptedProvider({ q: { action: 'decline' } })), onEvent: r2.onEvent },
    );
    assert.equal(r2.finish(res.result).rounds[0].inputs[0].answer!.action, 'decline');
    await Promise.all([s.conn.close(), s2.conn.close()]);
  });

  it('does not keep a result of many megabytes (it says so), nor arguments too large to keep', () => {
    const recorder = new CallRecorder({
      id: 'h3',
      server: 's',
      method: 'tools/call',
      target: 't',
      params: { name: 't', arguments: { blob: 'x'.repeat(100_000) } },
    });
    const huge = { content: [{ type: 'text', text: 'y'.repeat(MAX_KEPT_RESULT_CHARS * 20) }] };
    recorder.onEvent({
      kind: 'complete',
      flowId: 1,
      server: 's',
      method: 'tools/call',
      target: 't',
      round: 0,
      legMs: 1,
      totalMs: 5,
      waitingMs: 0,
      isError: false,
    });
    const record = recorder.finish(huge);
    assert.equal(record.result, undefined);
    assert.match(record.resultNote!, /too large to keep/);
    assert.match(record.resultNote!, /arguments were too large/);
    assert.equal(record.arguments, undefined);
    assert.ok(JSON.stringify(record).length < 10_000);
  });
});
