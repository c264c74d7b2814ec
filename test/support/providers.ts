/** Input providers for tests: answers by key (value or function), and records what was asked. */
import type { InputContext, InputProvider } from '../../src/core/inputs/inputProvider';

// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- the union says a function answer is called with the params
export type Answer = unknown | ((params: any, ctx: InputContext) => unknown | Promise<unknown>);

export interface RecordingProvider extends InputProvider {
  asked: { key: string; method: string; round: number; target: string; params: any }[];
}

/** Declares form+URL elicitation, sampling and roots; answers from `answers[key]`, else throws. */
export function scriptedProvider(
  answers: Record<string, Answer>,
  capabilities: InputProvider['capabilities'] = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
): RecordingProvider {
  const asked: RecordingProvider['asked'] = [];
  const answer = async (method: string, params: any, ctx: InputContext) => {
    asked.push({ key: ctx.key, method, round: ctx.round.round, target: ctx.round.target, params });
    if (!(ctx.key in answers)) throw new Error(`test provider has no answer for ${ctx.key}`);
    const a = answers[ctx.key];
    return typeof a === 'function' ? await a(params, ctx) : a;
  };
  return {
    capabilities,
    asked,
    elicit: (p, ctx) => answer('elicitation/create', p, ctx) as any,
    sample: (p, ctx) => answer('sampling/createMessage', p, ctx) as any,
    listRoots: (ctx) => answer('roots/list', {}, ctx) as any,
  };
}

/** A promise plus its resolver, for tests that need to hold an answer until they say so. */
export function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}
