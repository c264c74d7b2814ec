/** The host's check of the round panel's webview messages (src/vscode/roundPanel/parseMessage.ts). */
import assert from 'node:assert/strict';
import { MAX_ENTRIES, MAX_TEXT, parseWebviewMessage } from '../../../src/vscode/roundPanel/parseMessage';

describe('panel messages: parseWebviewMessage', () => {
  const good: unknown[] = [
    { type: 'ready' },
    { type: 'cancel' },
    { type: 'decline', id: '3' },
    { type: 'openUrl', id: '3' },
    { type: 'retryUrl', id: '3' },
    { type: 'stop', id: '3' },
    { type: 'submit', forms: { '1': { a: 'text', b: true, c: ['x', 'y'], d: null } } },
    { type: 'submitArgs', values: { '': '{"a":1}', n: '4' } },
    { type: 'approve', id: '2', modelId: 'm', systemPrompt: '', edits: [{ message: 0, block: 1, text: 'hi' }] },
    { type: 'send', id: '2', texts: ['a', 'b'] },
    { type: 'write', id: '2' },
    { type: 'back', id: '2' },
    {
      type: 'sendReply',
      id: '2',
      values: { reply: 'Day 1', tool: 'get_weather', model: 'human', stopReason: 'toolUse' },
      args: { city: 'Paris', '': '{}' },
    },
  ];
  for (const m of good) {
    it(`accepts ${JSON.stringify(m)}`, () => {
      const r = parseWebviewMessage(m);
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(r.message, m);
    });
  }

  const bad: [string, unknown][] = [
    ['not an object', 'ready'],
    ['null', null],
    ['an array', [{ type: 'ready' }]],
    ['unknown type', { type: 'openLink', uri: 'https://x' }],
    ['missing id', { type: 'decline' }],
    ['numeric id', { type: 'decline', id: 3 }],
    ['empty id', { type: 'decline', id: '' }],
    ['extra key (an URL smuggled into openUrl)', { type: 'openUrl', id: '1', url: 'https://evil.example' }],
    ['extra key on ready', { type: 'ready', x: 1 }],
    ['forms not an object', { type: 'submit', forms: [] }],
    ['nested object value', { type: 'submit', forms: { '1': { a: { b: 1 } } } }],
    ['number value', { type: 'submit', forms: { '1': { a: 3 } } }],
    ['array of numbers', { type: 'submit', forms: { '1': { a: [1] } } }],
    ['text too long', { type: 'submitArgs', values: { a: 'x'.repeat(MAX_TEXT + 1) } }],
    ['a written reply without its arguments', { type: 'sendReply', id: '2', values: { reply: 'x' } }],
    ['a written reply with a nested argument value', { type: 'sendReply', id: '2', values: {}, args: { city: { name: 'Paris' } } }],
    ['a written reply carrying a finished result', { type: 'sendReply', id: '2', values: {}, args: {}, result: { role: 'assistant' } }],
    ['write with an extra key', { type: 'write', id: '2', text: 'x' }],
    [
      'too many values',
      { type: 'submitArgs', values: Object.fromEntries(Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => [`k${i}`, ''])) },
    ],
    [
      'edit with a negative index',
      { type: 'approve', id: '2', modelId: 'm', systemPrompt: '', edits: [{ message: -1, block: 0, text: '' }] },
    ],
    ['edit with a fraction', { type: 'approve', id: '2', modelId: 'm', systemPrompt: '', edits: [{ message: 0.5, block: 0, text: '' }] }],
    ['approve without system prompt', { type: 'approve', id: '2', modelId: 'm', edits: [] }],
    ['send with a number', { type: 'send', id: '2', texts: [1] }],
  ];
  for (const [what, m] of bad) {
    it(`refuses ${what}`, () => {
      const r = parseWebviewMessage(m);
      assert.equal(r.ok, false);
      assert.ok(!r.ok && r.reason.length > 0);
    });
  }
});
