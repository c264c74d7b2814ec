/** Suggestions in the arguments form of a prompt or template (src/vscode/roundPanel/argumentsForm.ts, `complete`). */
import assert from 'node:assert/strict';
import { ArgumentsForm } from '../../../src/vscode/roundPanel/argumentsForm';
import type { ArgumentCompleter, ArgumentsRequest } from '../../../src/vscode/roundPanel/inputUi';
import type { ArgumentsView } from '../../../src/vscode/roundPanel/protocol';
import { templateArgumentsRequest } from '../../../src/vscode/commands/argumentCompletion';
import { FakeHost } from '../../support/panels';

/** A completer whose answers the test gives by hand, recording each request. */
function handCompleter() {
  const calls: { name: string; value: string; context: Record<string, string>; signal: AbortSignal; answer(v: string[]): void }[] = [];
  const completer: ArgumentCompleter = (name, value, context, signal) =>
    new Promise((resolve) => calls.push({ name, value, context, signal, answer: resolve }));
  return { calls, completer };
}

const settle = () => new Promise<void>((r) => setImmediate(r));

describe('arguments form: suggestions from completion/complete', () => {
  const TEMPLATE = { name: 'Dynamic Text Resource', uriTemplate: 'demo://{kind}/{resourceId}' };

  it('a template form: "Variables" wording data, one field per variable, suggestions asked and sent back bounded', async () => {
    const { calls, completer } = handCompleter();
    const host = new FakeHost<ArgumentsView>();
    const request = templateArgumentsRequest('everything', TEMPLATE, completer);
    const form = new ArgumentsForm(request, undefined, host);
    assert.equal(host.last.argKind, 'template');
    assert.equal(host.last.completions, true);
    assert.deepEqual(
      host.last.fields.map((f) => f.key),
      ['kind', 'resourceId'],
    );
    form.receive({ type: 'complete', key: 'resourceId', value: '1', context: { kind: 'text', resourceId: 'x', other: '' }, seq: 4 });
    assert.equal(calls.length, 1);
    assert.deepEqual([calls[0].name, calls[0].value, calls[0].context], ['resourceId', '1', { kind: 'text' }]);
    const many = Array.from({ length: 150 }, (_, i) => `1${i}`);
    many[0] = 'x'.repeat(10_000);
    calls[0].answer(many);
    await settle();
    const sent = host.suggestionsSent.at(-1)!;
    assert.equal(sent.key, 'resourceId');
    assert.equal(sent.seq, 4);
    assert.equal(sent.values.length, 100, 'at most 100 values');
    assert.ok(sent.values[0].length < 5_000 && sent.values[0].endsWith('more characters)'), 'a long value is cut');
  });

  it('a newer request aborts the older one, whose answer is not sent', async () => {
    const { calls, completer } = handCompleter();
    const host = new FakeHost<ArgumentsView>();
    const form = new ArgumentsForm(templateArgumentsRequest('everything', TEMPLATE, completer), undefined, host);
    form.receive({ type: 'complete', key: 'kind', value: 't', context: {}, seq: 1 });
    form.receive({ type: 'complete', key: 'kind', value: 'te', context: {}, seq: 2 });
    assert.ok(calls[0].signal.aborted && !calls[1].signal.aborted);
    calls[0].answer(['old']);
    calls[1].answer(['text']);
    await settle();
    assert.deepEqual(
      host.suggestionsSent.map((m) => [m.seq, m.values]),
      [[2, ['text']]],
    );
  });

  it('no completer (no completions capability), or a field it does not have: nothing is asked', () => {
    const host = new FakeHost<ArgumentsView>();
    const request: ArgumentsRequest = templateArgumentsRequest('demo', TEMPLATE);
    const form = new ArgumentsForm(request, undefined, host);
    assert.equal(host.last.completions, undefined);
    form.receive({ type: 'complete', key: 'kind', value: '', context: {}, seq: 1 });
    assert.match(host.debugs.at(-1)!, /ignored complete: the server offers no completions/);
    const { calls, completer } = handCompleter();
    const withCompleter = new ArgumentsForm(templateArgumentsRequest('everything', TEMPLATE, completer), undefined, host);
    withCompleter.receive({ type: 'complete', key: 'nope', value: '', context: {}, seq: 1 });
    assert.equal(calls.length, 0);
    assert.match(host.debugs.at(-1)!, /no field "nope"/);
  });
});
