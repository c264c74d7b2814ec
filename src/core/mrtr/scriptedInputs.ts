/**
 * Scripted answers: an input provider answering from a JSON object keyed by the `inputRequests` key
 * (the CLI's `--answers` file, a saved call's `answers`), roots from directories. A key with no
 * answer goes to the fallback (the terminal, the round panel) or ends the call naming the key and
 * the method (the CLI's exit code 3).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildFormModel } from '../elicitation/formFields';
import { checkAnswer, type FormContentCheck } from '../inputs/answers';
import { HostError, errorMessage } from '../util/errors';
import type { InputContext, InputMethod, InputProvider } from '../inputs/inputProvider';
import { rootsFromPaths } from '../config/roots';
import { isPlainObject } from '../util/json';

/**
 * Read and check an answers file: a JSON object `{key: answer}`.
 * @throws HostError kind `usage` when the file is missing or not a JSON object
 */
export function loadAnswers(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new HostError('usage', `cannot read --answers ${file}: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new HostError('usage', `--answers ${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (!isPlainObject(parsed)) throw new HostError('usage', `--answers ${file} must hold a JSON object keyed by inputRequests key`);
  return parsed;
}

/** Why the form of a form-mode elicitation cannot be shown, or `undefined` (a URL elicitation, or a usable form). */
function formFault(params: unknown): string | undefined {
  const p = (params ?? {}) as { mode?: unknown; requestedSchema?: unknown };
  if (p.mode === 'url') return undefined;
  try {
    buildFormModel(p.requestedSchema);
    return undefined;
  } catch (e) {
    return errorMessage(e);
  }
}

/**
 * A provider answering from `answers`; roots fall back to `rootDirs` (to `fallback` when there are
 * none and a fallback is given); anything else missing throws HostError kind `missingAnswer`.
 * Answers for a key are reused if the server asks the same key again.
 * @param fallback asked for keys with no scripted answer (the terminal, when interactive; the round panel)
 * @param formsOnly keys whose answer may only answer an elicitation (a saved call's: roots and
 *   sampling are never a workspace file's), as if missing for anything else
 */
export function scriptedInputs(
  answers: Record<string, unknown>,
  rootDirs: string[],
  fallback?: InputProvider,
  checkFormContent?: FormContentCheck,
  formsOnly?: ReadonlySet<string>,
): InputProvider {
  const answer = (ctx: InputContext, method: InputMethod, params: unknown) => {
    if (!Object.prototype.hasOwnProperty.call(answers, ctx.key)) return undefined;
    if (method !== 'elicitation/create' && formsOnly?.has(ctx.key)) return undefined;
    // A form the server got wrong cannot be accepted, whatever the file says: that is the server's fault.
    const fault =
      method === 'elicitation/create' && (answers[ctx.key] as { action?: unknown } | null)?.action === 'accept'
        ? formFault(params)
        : undefined;
    if (fault)
      return Promise.reject(
        new HostError(
          'protocol',
          `${ctx.round.server} asked "${ctx.key}" with a form the host cannot show (${fault}); it can only be declined or cancelled`,
        ),
      );
    // A scripted answer that does not fit the request is a mistake in the file (exit 2), not the server's.
    try {
      checkAnswer({ key: ctx.key, method, params: (params ?? {}) as Record<string, unknown> }, answers[ctx.key], checkFormContent);
    } catch (e) {
      return Promise.reject(
        new HostError(
          'usage',
          `--answers "${ctx.key}" does not fit the ${method} request of ${ctx.round.server}: ${errorMessage(e).replace(/^Answer to \S+ "[^"]*" is invalid: /, '')}`,
        ),
      );
    }
    return Promise.resolve(answers[ctx.key]);
  };
  const missing = (ctx: InputContext, method: string) =>
    new HostError(
      'missingAnswer',
      `no answer for input "${ctx.key}" (${method}) asked by ${ctx.round.server} in round ${ctx.round.round} of ${ctx.round.method} ${ctx.round.target}; add it to --answers`,
    );
  return {
    // With the terminal behind it, what the terminal can answer (a written sampling reply may call a tool).
    capabilities: fallback?.capabilities ?? { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
    elicit: (p, ctx) =>
      (answer(ctx, 'elicitation/create', p) as Promise<never>) ??
      fallback?.elicit(p, ctx) ??
      Promise.reject(missing(ctx, 'elicitation/create')),
    sample: (p, ctx) =>
      (answer(ctx, 'sampling/createMessage', p) as Promise<never>) ??
      fallback?.sample(p, ctx) ??
      Promise.reject(missing(ctx, 'sampling/createMessage')),
    // A scripted accept stands for the person's "done"; else the fallback's (the terminal's) word.
    urlDone: (p, ctx) =>
      Object.prototype.hasOwnProperty.call(answers, ctx.key) ? Promise.resolve() : (fallback?.urlDone?.(p, ctx) ?? Promise.resolve()),
    listRoots: (ctx) =>
      (answer(ctx, 'roots/list', {}) as Promise<never>) ??
      (!rootDirs.length && fallback ? fallback.listRoots(ctx) : rootsFromPaths(rootDirs.map((d) => resolve(d)))),
  };
}
