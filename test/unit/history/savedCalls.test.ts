/**
 * Saved calls (`.vscode/mcp-calls.json`): the format VS Code writes and the CLI's `run` reads, its
 * errors (naming the file and the call), writing that keeps the rest of the file, and the scripted
 * answers made from a history entry (never a secret field's value).
 */
import assert from 'node:assert/strict';
import type { CallRecord } from '../../../src/core/history/callRecord';
import { answersFromRecord, parseSavedCalls, savedCallJson, savedCallRequest, withSavedCall } from '../../../src/core/history/savedCalls';

const FILE = '/ws/.vscode/mcp-calls.json';

describe('history: saved calls', () => {
  it('reads tools, prompts and resources with arguments and answers (JSON with comments)', () => {
    const text = `{
      // shared by the team
      "calls": {
        "four at eight": { "server": "demo", "tool": "book_table", "arguments": { "restaurant": "Chez Test" }, "answers": { "booking": { "action": "decline" } } },
        "review": { "server": "demo", "prompt": "code_review", "arguments": { "code": "x" } },
        "note": { "server": "demo", "resource": "demo://secret-note" },
      }
    }`;
    const { calls, errors } = parseSavedCalls(text, FILE);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      calls.map((c) => [c.name, c.method, c.target]),
      [
        ['four at eight', 'tools/call', 'book_table'],
        ['review', 'prompts/get', 'code_review'],
        ['note', 'resources/read', 'demo://secret-note'],
      ],
    );
    assert.deepEqual(savedCallRequest(calls[0]), {
      method: 'tools/call',
      params: { name: 'book_table', arguments: { restaurant: 'Chez Test' } },
    });
    assert.deepEqual(savedCallRequest(calls[2]), { method: 'resources/read', params: { uri: 'demo://secret-note' } });
    assert.deepEqual(calls[0].answers, { booking: { action: 'decline' } });
  });

  it('names the file and the call for each broken entry; the others still load', () => {
    const text = JSON.stringify({
      calls: {
        a: { server: 'demo', tool: 'x' },
        b: { tool: 'x' },
        c: { server: 'demo', tool: 'x', prompt: 'y' },
        d: { server: 'demo', tool: 'x', arguments: [] },
        e: { server: 'demo', prompt: 'p', arguments: { n: 1 } },
        f: 'nope',
        g: { server: 'demo', resource: 'u', arguments: {} },
        h: { server: 'demo', tool: 'x', answers: [1] },
      },
    });
    const { calls, errors } = parseSavedCalls(text, FILE);
    assert.deepEqual(
      calls.map((c) => c.name),
      ['a'],
    );
    assert.equal(errors.length, 7);
    for (const e of errors) assert.ok(e.startsWith(`${FILE}: saved call "`), e);
    assert.match(errors.join('\n'), /"b" needs a "server"/);
    assert.match(errors.join('\n'), /"c" needs exactly one of "tool", "prompt" or "resource"/);
    assert.deepEqual(parseSavedCalls('{ "calls": { "a": ', FILE).errors, [`${FILE}: invalid JSON at line 1: ValueExpected`]);
    assert.match(parseSavedCalls('[1]', FILE).errors[0], /expected \{"calls"/);
    assert.deepEqual(parseSavedCalls('', FILE), { calls: [], errors: [] });
    assert.match(parseSavedCalls(' '.repeat(5_000_001), FILE).errors[0], /larger than/);
  });

  it("writing a call keeps the file's other calls and comments, and replaces one of the same name", () => {
    const before = '{\n  // keep me\n  "calls": {\n    "old": { "server": "demo", "tool": "busy_report" }\n  }\n}\n';
    const json = savedCallJson({
      server: 'demo',
      method: 'tools/call',
      target: 'book_table',
      arguments: { restaurant: 'Chez "Test"' },
      answers: { booking: { action: 'cancel' } },
    });
    const after = withSavedCall(before, 'new one', json);
    assert.match(after, /\/\/ keep me/);
    const { calls } = parseSavedCalls(after, FILE);
    assert.deepEqual(
      calls.map((c) => c.name),
      ['old', 'new one'],
    );
    assert.deepEqual(calls[1].arguments, { restaurant: 'Chez "Test"' });
    const replaced = parseSavedCalls(
      withSavedCall(after, 'old', savedCallJson({ server: 'demo', method: 'resources/read', target: 'demo://x' })),
      FILE,
    ).calls;
    assert.deepEqual(
      replaced.map((c) => [c.name, c.method]),
      [
        ['old', 'resources/read'],
        ['new one', 'tools/call'],
      ],
    );
    assert.deepEqual(
      parseSavedCalls(withSavedCall(undefined, 'first', json), FILE).calls.map((c) => c.name),
      ['first'],
    );
    assert.throws(() => withSavedCall('{ broken', 'x', json), /not a valid saved-calls file/);
    assert.throws(() => withSavedCall('{"calls": 3}', 'x', json), /not a valid saved-calls file/);
  });

  it('answers from a history entry: declines and kept values; never a secret field, nothing that was not kept', () => {
    const record: CallRecord = {
      id: 'h1',
      server: 'demo',
      method: 'tools/call',
      target: 't',
      startedAt: 0,
      totalMs: 1,
      waitingMs: 0,
      status: 'complete',
      rounds: [
        {
          round: 1,
          legMs: 1,
          state: { present: true, length: 30 },
          inputs: [
            {
              key: 'kept',
              method: 'elicitation/create',
              mode: 'form',
              fields: [{ key: 'a', label: 'A', type: 'string', required: true, secret: false }],
              answer: { action: 'accept', by: 'you', waitedMs: 1, fields: ['a'], values: { a: 'x' } },
            },
            {
              key: 'login',
              method: 'elicitation/create',
              mode: 'form',
              fields: [{ key: 'password', label: 'Password', type: 'password', required: true, secret: true }],
              answer: { action: 'accept', by: 'you', waitedMs: 1, fields: ['password'], values: {} },
            },
            {
              key: 'notKept',
              method: 'elicitation/create',
              mode: 'form',
              fields: [{ key: 'b', label: 'B', type: 'string', required: true, secret: false }],
              answer: { action: 'accept', by: 'you', waitedMs: 1, fields: ['b'] },
            },
            { key: 'no', method: 'elicitation/create', mode: 'form', answer: { action: 'decline', by: 'you', waitedMs: 1 } },
            { key: 'model', method: 'sampling/createMessage', answer: { action: 'answered', by: 'you', waitedMs: 1, model: 'm' } },
          ],
        },
      ],
    };
    const { answers, unscripted } = answersFromRecord(record);
    assert.deepEqual(answers, { kept: { action: 'accept', content: { a: 'x' } }, no: { action: 'decline' } });
    assert.deepEqual(unscripted.sort(), ['login', 'notKept']);
  });
});
