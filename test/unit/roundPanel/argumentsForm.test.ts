/** The arguments form of a tool or prompt call, without VS Code (src/vscode/roundPanel/argumentsForm.ts). */
import assert from 'node:assert/strict';
import type { ArgumentsView } from '../../../src/vscode/roundPanel/protocol';
import { ArgumentsForm } from '../../../src/vscode/roundPanel/argumentsForm';
import { FakeHost, state } from '../../support/panels';

describe('arguments form', () => {
  const FIND_ORDERS = {
    type: 'object',
    $defs: {
      Window: {
        type: 'object',
        properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' } },
        required: ['from'],
      },
    },
    properties: { window: { $ref: '#/$defs/Window' }, limit: { type: 'integer', default: 20 } },
    required: ['window'],
  };
  const request = (schema: Record<string, unknown>) => ({ server: 'demo', kind: 'tool' as const, name: 'find_orders', schema });

  it('shows the prepared fields (JSON field for the nested object) and resolves with built arguments', async () => {
    const host = new FakeHost<ArgumentsView>();
    const f = new ArgumentsForm(request(FIND_ORDERS), undefined, host);
    const view = host.last;
    assert.deepEqual(
      view.fields.map((x) => [x.key, x.kind]),
      [
        ['window', 'json'],
        ['limit', 'integer'],
      ],
    );
    f.receive({ type: 'submitArgs', values: { window: '', limit: '5' } });
    assert.ok(host.errorsSent.at(-1)!.errors.window, 'window is required');
    f.receive({ type: 'submitArgs', values: { window: '{"to":"2026-11-02"}', limit: '5' } });
    assert.match(host.errorsSent.at(-1)!.errors.window, /from/);
    f.receive({ type: 'submitArgs', values: { window: '{"from":"2026-11-01"}', limit: '5' } });
    assert.deepEqual(await f.result, { window: { from: '2026-11-01' }, limit: 5 });
    assert.deepEqual(f.submitted, { window: '{"from":"2026-11-01"}', limit: '5' });
    // The panel stays, read-only, to become the call's round panel.
    assert.equal(host.closed, 0);
    assert.equal(host.last.sent, true);
    f.receive({ type: 'submitArgs', values: { window: '{"from":"2026-12-01"}', limit: '1' } });
    assert.deepEqual(f.submitted, { window: '{"from":"2026-11-01"}', limit: '5' }, 'a second submit changes nothing');
  });

  it('pre-fills the values submitted last time', () => {
    const host = new FakeHost<ArgumentsView>();
    new ArgumentsForm(request(FIND_ORDERS), { window: '{"from":"2026-01-01"}', limit: '7' }, host);
    assert.deepEqual(
      host.last.fields.map((x) => x.initial),
      ['{"from":"2026-01-01"}', 7],
    );
  });

  it('a schema that cannot be prepared (network $ref) shows its error; submit does nothing; Cancel resolves undefined', async () => {
    const host = new FakeHost<ArgumentsView>();
    const f = new ArgumentsForm(
      request({ type: 'object', properties: { cfg: { $ref: 'https://schemas.example.test/cfg.json' } } }),
      undefined,
      host,
    );
    assert.match(host.last.problem ?? '', /schemas\.example\.test/);
    f.receive({ type: 'submitArgs', values: {} });
    assert.deepEqual(await state(f.result), { done: false });
    f.receive({ type: 'cancel' });
    assert.equal(await f.result, undefined);
  });

  it('closing the panel or the signal resolves undefined', async () => {
    const a = new ArgumentsForm(request(FIND_ORDERS), undefined, new FakeHost<ArgumentsView>());
    a.closedByUser();
    assert.equal(await a.result, undefined);
    const ac = new AbortController();
    const host = new FakeHost<ArgumentsView>();
    const b = new ArgumentsForm(request(FIND_ORDERS), undefined, host, ac.signal);
    ac.abort();
    assert.equal(await b.result, undefined);
    assert.equal(host.closed, 1);
  });

  it('prompt arguments (an object schema of strings) become text fields', async () => {
    const host = new FakeHost<ArgumentsView>();
    const f = new ArgumentsForm(
      {
        server: 'demo',
        kind: 'prompt',
        name: 'code_review',
        schema: { type: 'object', properties: { code: { type: 'string', title: 'code' } }, required: ['code'] },
      },
      undefined,
      host,
    );
    assert.deepEqual(
      host.last.fields.map((x) => [x.key, x.kind, x.required]),
      [['code', 'text', true]],
    );
    f.receive({ type: 'submitArgs', values: { code: 'x = 1' } });
    assert.deepEqual(await f.result, { code: 'x = 1' });
  });
});
