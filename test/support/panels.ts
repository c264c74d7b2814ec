/**
 * Harness of the round panel's unit tests: a panel host that records what it is asked to do and runs
 * timers by hand, and builders of rounds, contexts and requests.
 */
import assert from 'node:assert/strict';
import type { ElicitRequestParams } from '@modelcontextprotocol/client';
import type { InputContext, InputRequestEntry, RoundInfo } from '../../src/core/inputs/inputProvider';
import type { FormInputView, PanelView, RoundView, SuggestionsMessage } from '../../src/vscode/roundPanel/protocol';
import type { PanelHost } from '../../src/vscode/roundPanel/panelHost';

/** A host that records everything and runs timers by hand. */
export class FakeHost<V extends PanelView = RoundView> implements PanelHost<V> {
  renders: { view: V; reveal: boolean }[] = [];
  errorsSent: { id: string; errors: Record<string, string> }[] = [];
  closed = 0;
  opened: string[] = [];
  debugs: string[] = [];
  timers: (() => void)[] = [];
  openResult: boolean | Error = true;
  render(view: V, reveal: boolean): void {
    this.renders.push({ view: structuredClone(view), reveal });
  }
  errors(id: string, errors: Record<string, string>): void {
    this.errorsSent.push({ id, errors });
  }
  suggestionsSent: SuggestionsMessage[] = [];
  suggestions(message: SuggestionsMessage): void {
    this.suggestionsSent.push(message);
  }
  close(): void {
    this.closed++;
  }
  async openExternal(url: string): Promise<boolean> {
    this.opened.push(url);
    if (this.openResult instanceof Error) throw this.openResult;
    return this.openResult;
  }
  debug(text: string): void {
    this.debugs.push(text);
  }
  setTimer(fn: () => void): () => void {
    this.timers.push(fn);
    return () => (this.timers = this.timers.filter((t) => t !== fn));
  }
  get last(): V {
    assert.ok(this.renders.length > 0, 'nothing rendered');
    return this.renders[this.renders.length - 1].view;
  }
}

export function round(inputs: [string, InputRequestEntry['method'], Record<string, unknown>?][], n = 1, flowId = 7): RoundInfo {
  return {
    flowId,
    server: 'demo',
    method: 'tools/call',
    target: 'book_table',
    round: n,
    inputs: inputs.map(([key, method, params]) => ({ key, method, params: params ?? {} })),
    era: 'modern',
  };
}

export function ctx(r: RoundInfo, key: string, signal: AbortSignal = new AbortController().signal): InputContext {
  return { round: r, key, signal };
}

export const form = (schema: Record<string, unknown>, message = 'Please answer'): ElicitRequestParams =>
  ({ mode: 'form', message, requestedSchema: schema }) as ElicitRequestParams;
export const urlParams = (url: string): ElicitRequestParams =>
  ({ mode: 'url', message: 'Connect your storage account to continue.', url }) as unknown as ElicitRequestParams;

/** Settled state of a promise, without waiting for it. */
export async function state<T>(p: Promise<T>): Promise<{ done: false } | { done: true; value?: T; error?: unknown }> {
  const marker = Symbol('pending');
  const r = await Promise.race([
    p.then(
      (value) => ({ done: true as const, value }),
      (error: unknown) => ({ done: true as const, error }),
    ),
    new Promise<typeof marker>((res) => setImmediate(() => res(marker))),
  ]);
  return r === marker ? { done: false } : r;
}

export const F1 = { type: 'object', properties: { copies: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['copies'] };
export const F2 = {
  type: 'object',
  properties: {
    notify: { type: 'boolean', title: 'Send a notification?', default: false },
    archive: { type: 'boolean', title: 'Archive after sending?' },
  },
  required: ['archive'],
};
export const F3 = {
  type: 'object',
  properties: {
    region: {
      type: 'string',
      title: 'Region',
      oneOf: [
        { const: 'eu-w', title: 'Europe (West)' },
        { const: 'us-e', title: 'US (East)' },
        { const: 'ap-s', title: 'Asia Pacific (South)' },
      ],
      default: 'us-e',
    },
    tier: { type: 'string', enum: ['basic', 'pro'], enumNames: ['Basic plan', 'Pro plan'], default: 'basic' },
    replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 9, default: 2 },
  },
  required: ['region', 'replicas'],
};
export const F4 = { type: 'object', properties: { reason: { type: 'string', minLength: 5 } }, required: ['reason'] };

export function formItem(view: RoundView, key: string): FormInputView {
  const item = view.items.find((i) => i.key === key);
  assert.ok(item && item.kind === 'form', `no form ${key}`);
  return item;
}
