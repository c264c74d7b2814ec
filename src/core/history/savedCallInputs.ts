/**
 * How a saved call's answers reach the person in VS Code: they may only pre-fill. A file in a
 * workspace is someone else's words, so an accepted form in it opens the form with those values for
 * the person to check and submit; nothing is answered by the file. Sampling and roots are never the
 * file's: they are answered as for any call (reviewed; the workspace folders).
 */
import type { ElicitRequestParams } from '@modelcontextprotocol/client';
import type { InputProvider } from '../inputs/inputProvider';
import { isPlainObject } from '../util/json';

/**
 * The form values a saved answer may pre-fill: the `content` of an accepted answer to a form-mode
 * elicitation, else `undefined` (a decline or cancel, a URL consent, anything else: the person answers).
 */
export function prefillOf(answer: unknown, params: ElicitRequestParams): Readonly<Record<string, unknown>> | undefined {
  if ((params as { mode?: unknown }).mode === 'url' || !isPlainObject(answer)) return undefined;
  return answer.action === 'accept' && isPlainObject(answer.content) ? answer.content : undefined;
}

/**
 * `inner`, with a saved call's `answers` as pre-fill: a form whose key has an accepted answer opens
 * with its values (`InputContext.prefill`), answered by `inner` (the person). Sampling, roots, URL
 * consent and every capability are `inner`'s, unchanged.
 * @param answers the saved call's answers by `inputRequests` key
 */
export function prefilledInputs(answers: Readonly<Record<string, unknown>>, inner: InputProvider): InputProvider {
  return {
    capabilities: inner.capabilities,
    elicit: (params, ctx) => {
      const saved = Object.prototype.hasOwnProperty.call(answers, ctx.key) ? prefillOf(answers[ctx.key], params) : undefined;
      return inner.elicit(params, saved ? { ...ctx, prefill: saved } : ctx);
    },
    sample: (params, ctx) => inner.sample(params, ctx),
    listRoots: (ctx) => inner.listRoots(ctx),
    urlDone: (params, ctx) => inner.urlDone?.(params, ctx) ?? Promise.resolve(),
  };
}
