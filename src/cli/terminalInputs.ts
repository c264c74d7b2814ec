/**
 * Interactive answers in a terminal (CLI on a TTY without `--answers`): form fields one by one
 * with their types and validation, URL consent, and sampling replies written by the person (the
 * CLI has no model: `terminalSampling.ts`). Prompts go to stderr so stdout stays the result.
 *
 * Spec: MCP 2026-07-28 "Elicitation" (form and URL modes, accept/decline/cancel).
 */
import { HostError } from '../core/util/errors';
import { buildElicitResult } from '../core/elicitation/formCheck';
import { buildFormModel } from '../core/elicitation/formFields';
import { fieldError, type RawFormValues } from '../core/elicitation/formModel';
import type { InputProvider } from '../core/mrtr/inputs';
import { analyzeUrl } from '../core/elicitation/urlConsent';
import { createPrompter, type Ask } from './terminalPrompt';
import { writeReplyAtTerminal } from './terminalSampling';
import { fieldPrompt, label, rawValue, terminalText } from './terminalText';

/**
 * A terminal-backed provider. Type `:decline` or `:cancel` at any prompt.
 * @param ask the terminal's one line reader (shared with the sign-in's paste prompt)
 */
export function terminalInputs(out: NodeJS.WritableStream, input: NodeJS.ReadableStream = process.stdin, ask: Ask = createPrompter(out, input)): InputProvider {
  // One question at a time, even when a round has several inputs.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(f: () => Promise<T>): Promise<T> => {
    const next = queue.then(f, f);
    queue = next.catch(() => {});
    return next;
  };
  // The last accepted form values per call and key, to pre-fill a form the server asks again.
  const previousAnswers = new Map<string, Record<string, unknown>>();
  return {
    capabilities: { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} },
    elicit: (params, ctx) =>
      serial(async () => {
        const p = params as unknown as Record<string, unknown>;
        out.write(`\n${label(ctx.round.server)} asks (${ctx.round.method} ${label(ctx.round.target)}, round ${ctx.round.round}, "${label(ctx.key)}"):\n  ${terminalText(p.message)}\n`);
        if (p.mode === 'url') {
          const a = analyzeUrl(String(p.url ?? ''));
          out.write(`  URL:  ${label(a.url)}\n  host: ${label(a.host)}\n${a.warnings.map((w) => `  warning: ${label(w)}\n`).join('')}`);
          if (!a.openable) {
            out.write('  This URL cannot be opened (only http and https are).\n');
            return { action: 'decline' };
          }
          const yn = (await ask('  Go to this URL? Open it in your browser yourself. [y]es / [n]o (decline) / [c]ancel: ', ctx.signal)).toLowerCase();
          return yn === 'y' || yn === 'yes' ? { action: 'accept' } : yn === 'c' || yn === ':cancel' ? { action: 'cancel' } : { action: 'decline' };
        }
        // Asked again (the server re-asks the same key after a rejected answer): what was typed
        // last time is pre-filled, Enter keeps it.
        const memoryKey = `${ctx.round.flowId}\u0000${ctx.key}`;
        const model = buildFormModel(p.requestedSchema, previousAnswers.get(memoryKey));
        out.write('  (type :decline or :cancel at any prompt; Enter keeps the value in [brackets])\n');
        const raw: Record<string, unknown> = {};
        for (const f of model.fields) {
          if (f.description) out.write(`  ${label(f.label)}: ${terminalText(f.description, '    ')}\n`);
          for (;;) {
            const answer = await ask(`  ${fieldPrompt(f)}: `, ctx.signal);
            if (answer === ':decline') return { action: 'decline' };
            if (answer === ':cancel') return { action: 'cancel' };
            const value = rawValue(f, answer);
            const probe = buildElicitResult(model, 'accept', { ...raw, [f.key]: value } as RawFormValues);
            const err = probe.ok ? undefined : fieldError(probe.errors, f.key);
            if (err) {
              out.write(`    ${terminalText(err, '    ')}\n`);
              continue;
            }
            raw[f.key] = value;
            break;
          }
        }
        const outcome = buildElicitResult(model, 'accept', raw as RawFormValues);
        if (!outcome.ok) throw new HostError('protocol', `form still invalid: ${Object.values(outcome.errors).join('; ')}`);
        previousAnswers.set(memoryKey, raw);
        return outcome.result;
      }),
    sample: (params, ctx) => serial(() => writeReplyAtTerminal(params, ctx, out, ask)),
    listRoots: () => Promise.reject(new Error('roots are answered from --roots')),
  };
}
