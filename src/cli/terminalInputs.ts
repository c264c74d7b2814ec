/**
 * Interactive answers in a terminal (CLI on a TTY without `--answers`): form fields one by one
 * with their types and validation, URL consent, and sampling declined (the CLI has no model).
 * Prompts go to stderr so stdout stays the result.
 *
 * Spec: MCP 2026-07-28 "Elicitation" (form and URL modes, accept/decline/cancel).
 */
import type { ElicitResult } from '@modelcontextprotocol/client';
import { buildElicitResult } from '../core/elicitation/formCheck';
import { buildFormModel } from '../core/elicitation/formFields';
import { fieldError, type RawFormValues } from '../core/elicitation/formModel';
import { analyzeUrl } from '../core/elicitation/urlConsent';
import type { InputContext, InputProvider } from '../core/inputs/inputProvider';
import { HostError, cancellation, errorMessage } from '../core/util/errors';
import { put } from '../core/util/json';
import { askChoice, createPrompter, type Ask } from './terminalPrompt';
import { writeReplyAtTerminal } from './terminalSampling';
import { fieldPrompt, label, promptText, rawValue, terminalFieldError, terminalText, UNSET } from './terminalText';
import { cliText } from './messages';

/**
 * A terminal-backed provider. Type `:decline` or `:cancel` at any prompt.
 * @param ask the terminal's one line reader (shared with the sign-in's paste prompt)
 */
export function terminalInputs(
  out: NodeJS.WritableStream,
  input: NodeJS.ReadableStream = process.stdin,
  ask: Ask = createPrompter(out, input),
): InputProvider {
  // One question at a time, even when a round has several inputs.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(f: () => Promise<T>): Promise<T> => {
    const next = queue.then(f, f);
    queue = next.catch(() => {});
    return next;
  };
  // The last accepted form values per call and key, to pre-fill a form the server asks again.
  const previousAnswers = new Map<string, Record<string, unknown>>();
  // Rounds one of whose inputs failed here: their other inputs, queued behind it, are not asked.
  const failedRounds = new Set<string>();
  // One input of a round at a time; once one fails, the others of that round are not asked.
  const inRound = <T>(ctx: InputContext, f: () => Promise<T>): Promise<T> =>
    serial(async () => {
      const roundKey = `${ctx.round.flowId}:${ctx.round.round}`;
      if (ctx.signal.aborted || failedRounds.has(roundKey)) throw cancellation(ctx.signal, 'not asked: another input of this round failed');
      try {
        return await f();
      } catch (e) {
        failedRounds.add(roundKey);
        throw e;
      }
    });
  return {
    capabilities: { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} },
    elicit: (params, ctx) => inRound(ctx, () => askElicitation(params as unknown as Record<string, unknown>, ctx)),
    sample: (params, ctx) => inRound(ctx, () => writeReplyAtTerminal(params, ctx, out, ask)),
    listRoots: () => Promise.reject(new Error('roots are answered from --roots')),
    urlDone: (p, ctx) =>
      inRound(ctx, async () => {
        const host = analyzeUrl(String((p as { url?: unknown }).url ?? '')).host;
        const answer = await ask(`  ${cliText('Press Enter once you are done at {0} (or :cancel):', label(host))} `, ctx.signal);
        if (answer === ':cancel') throw new HostError('cancelled', `cancelled at the terminal (waiting to be done at ${host})`);
      }),
  };

  /** Ask one elicitation at the terminal: URL consent, or the form's fields one by one. */
  async function askElicitation(p: Record<string, unknown>, ctx: InputContext): Promise<ElicitResult> {
    out.write(
      `\n${cliText('{0} asks ({1} {2}, round {3}, "{4}"):', label(ctx.round.server), ctx.round.method, label(ctx.round.target), ctx.round.round, label(ctx.key))}\n  ${promptText(p.message)}\n`,
    );
    if (p.mode === 'url') {
      const a = analyzeUrl(String(p.url ?? ''));
      out.write(
        `  URL:  ${label(a.url)}\n  ${cliText('host: {0}', label(a.host))}\n${a.warnings.map((w) => `  ${cliText('warning: {0}', label(w))}\n`).join('')}`,
      );
      if (!a.openable) {
        out.write(`  ${cliText('This URL cannot be opened (only http and https are).')}\n`);
        return { action: 'decline' };
      }
      const action = await askChoice(
        ask,
        out,
        `  ${cliText('Go to this URL? Open it in your browser yourself. [y]es / [n]o (decline) / [c]ancel:')} `,
        {
          y: 'accept',
          yes: 'accept',
          n: 'decline',
          no: 'decline',
          ':decline': 'decline',
          c: 'cancel',
          cancel: 'cancel',
          ':cancel': 'cancel',
        } as const,
        ctx.signal,
      );
      return { action };
    }
    // Asked again (the server re-asks the same key after a rejected answer): what was typed
    // last time is pre-filled, Enter keeps it.
    const memoryKey = `${ctx.round.flowId}\u0000${ctx.key}`;
    let model;
    try {
      model = buildFormModel(p.requestedSchema, previousAnswers.get(memoryKey));
    } catch (e) {
      // The server's form cannot be shown: as in the round panel, it can only be declined.
      out.write(`  ${cliText('This form cannot be shown: {0}', terminalText(errorMessage(e), '    '))}\n`);
      const action = await askChoice(
        ask,
        out,
        `  ${cliText('[d]ecline / [c]ancel:')} `,
        { d: 'decline', decline: 'decline', ':decline': 'decline', c: 'cancel', cancel: 'cancel', ':cancel': 'cancel' } as const,
        ctx.signal,
      );
      return { action };
    }
    out.write(
      `  ${cliText('(type :decline or :cancel at any prompt; Enter keeps the value in [brackets], {0} empties an optional one)', UNSET)}\n`,
    );
    const raw: Record<string, unknown> = {};
    for (const f of model.fields) {
      if (f.description) out.write(`  ${label(f.label)}: ${promptText(f.description, '    ')}\n`);
      for (;;) {
        const answer = await ask(`  ${fieldPrompt(f)}: `, ctx.signal);
        if (answer === ':decline') return { action: 'decline' };
        if (answer === ':cancel') return { action: 'cancel' };
        const value = rawValue(f, answer);
        const probe = buildElicitResult(model, 'accept', { ...raw, [f.key]: value } as RawFormValues);
        const err = probe.ok ? undefined : fieldError(probe.errors, f.key);
        if (err) {
          out.write(`    ${terminalText(terminalFieldError(f, err), '    ')}\n`);
          continue;
        }
        put(raw, f.key, value);
        break;
      }
    }
    const outcome = buildElicitResult(model, 'accept', raw as RawFormValues);
    if (!outcome.ok) throw new HostError('protocol', `form still invalid: ${Object.values(outcome.errors).join('; ')}`);
    previousAnswers.set(memoryKey, raw);
    return outcome.result;
  }
}
