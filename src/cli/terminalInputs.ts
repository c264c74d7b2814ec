/**
 * Interactive answers in a terminal (CLI on a TTY without `--answers`): form fields one by one
 * with their types and validation, URL consent, and sampling declined (the CLI has no model).
 * Prompts go to stderr so stdout stays the result.
 *
 * Spec: MCP 2026-07-28 "Elicitation" (form and URL modes, accept/decline/cancel).
 */
import { createInterface } from 'node:readline/promises';
import { HostError, cancellation, errorMessage } from '../core/util/errors';
import { put } from '../core/util/json';
import { buildElicitResult } from '../core/elicitation/formCheck';
import { buildFormModel } from '../core/elicitation/formFields';
import { fieldError, type FormField, type RawFormValues } from '../core/elicitation/formModel';
import type { ElicitResult } from '@modelcontextprotocol/client';
import type { InputContext, InputProvider } from '../core/mrtr/inputs';
import { UNSAFE_TEXT_RE, oneLine } from '../core/log/traceLog';
import { analyzeUrl } from '../core/elicitation/urlConsent';

/**
 * Server text made safe for a terminal: no escape sequences (ESC, CSI, OSC would clear the screen,
 * retitle the window, recolour or overwrite the prompt), no bidi overrides; line breaks kept, each
 * following line indented by `indent` so a server cannot forge a line of the host's own.
 */
export function terminalText(s: unknown, indent = '  '): string {
  return String(s ?? '')
    .replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\t/g, '    ').replace(UNSAFE_TEXT_RE, '\uFFFD'))
    .join(`\n${indent}`);
}

/** One-line server text for a terminal (keys, labels, options, URLs). */
const label = (s: unknown): string => oneLine(String(s ?? ''), 1000);

/** Most characters of a server's message or field description a prompt shows; the rest are counted. */
export const MAX_PROMPT_TEXT = 10_000;

/** Server text for a prompt: {@link terminalText}, cut at {@link MAX_PROMPT_TEXT} characters. */
function promptText(s: unknown, indent?: string): string {
  const text = String(s ?? '');
  return text.length > MAX_PROMPT_TEXT ? `${terminalText(text.slice(0, MAX_PROMPT_TEXT), indent)} … (${text.length - MAX_PROMPT_TEXT} more characters)` : terminalText(text, indent);
}

/** Most choices a prompt lists (a field may have a million): the rest are counted, and still taken by number or value. */
export const MAX_PROMPT_CHOICES = 20;

/** A terminal-backed provider. Type `:decline` or `:cancel` at any prompt. */
export function terminalInputs(out: NodeJS.WritableStream, input: NodeJS.ReadableStream = process.stdin): InputProvider {
  // One question at a time, even when a round has several inputs.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(f: () => Promise<T>): Promise<T> => {
    const next = queue.then(f, f);
    queue = next.catch(() => {});
    return next;
  };
  // One reader for the provider's life: a reader per question would lose lines it buffered.
  let rl: ReturnType<typeof createInterface> | undefined;
  // The last accepted form values per call and key, to pre-fill a form the server asks again.
  const previousAnswers = new Map<string, Record<string, unknown>>();
  // Rounds one of whose inputs failed here: their other inputs, queued behind it, are not asked.
  const failedRounds = new Set<string>();
  const ask = async (question: string, signal: AbortSignal): Promise<string> => {
    rl ??= createInterface({ input, output: out, terminal: (input as { isTTY?: boolean }).isTTY === true });
    try {
      return (await rl.question(question, { signal })).trim();
    } catch (e) {
      // Ctrl+C / Ctrl+D at a prompt (readline's own AbortError, the terminal being in raw mode) cancels the call.
      if (!signal.aborted && (e as { code?: string }).code === 'ABORT_ERR') throw new HostError('cancelled', `cancelled at the terminal (${(e as Error).message.replace(/^Aborted with /, '')})`);
      throw e;
    }
  };
  return {
    capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
    elicit: (params, ctx) =>
      serial(async () => {
        const roundKey = `${ctx.round.flowId}:${ctx.round.round}`;
        // Another input of the round failed while this one waited its turn: it is not asked at all.
        if (ctx.signal.aborted || failedRounds.has(roundKey)) throw cancellation(ctx.signal, 'not asked: another input of this round failed');
        try {
          return await askElicitation(params as unknown as Record<string, unknown>, ctx);
        } catch (e) {
          failedRounds.add(roundKey);
          throw e;
        }
      }),
    sample: (_params, ctx) =>
      Promise.reject(new HostError('declined', `sampling request "${ctx.key}" from ${ctx.round.server} declined: the CLI has no language model (answer it in --answers)`)),
    listRoots: () => Promise.reject(new Error('roots are answered from --roots')),
  };

  /** Ask one elicitation at the terminal: URL consent, or the form's fields one by one. */
  async function askElicitation(p: Record<string, unknown>, ctx: InputContext): Promise<ElicitResult> {
    out.write(`\n${label(ctx.round.server)} asks (${ctx.round.method} ${label(ctx.round.target)}, round ${ctx.round.round}, "${label(ctx.key)}"):\n  ${promptText(p.message)}\n`);
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
    let model;
    try {
      model = buildFormModel(p.requestedSchema, previousAnswers.get(memoryKey));
    } catch (e) {
      // The server's form cannot be shown: as in the round panel, it can only be declined.
      out.write(`  This form cannot be shown: ${terminalText(errorMessage(e), '    ')}\n`);
      const dc = (await ask('  [d]ecline / [c]ancel: ', ctx.signal)).toLowerCase();
      return dc === 'c' || dc === ':cancel' ? { action: 'cancel' } : { action: 'decline' };
    }
    out.write('  (type :decline or :cancel at any prompt; Enter keeps the value in [brackets])\n');
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
          out.write(`    ${terminalText(err, '    ')}\n`);
          continue;
        }
        put(raw, f.key, value);
        break;
      }
    }
    const outcome = buildElicitResult(model, 'accept', raw as RawFormValues);
    if (!outcome.ok) throw new HostError('protocol', `form still invalid: ${Object.values(outcome.errors).join('; ')}`);
    previousAnswers.set(memoryKey, raw);
    return outcome.result as ElicitResult;
  }
}

function fieldPrompt(f: FormField): string {
  const bits: string[] = [f.kind];
  const options = f.options ?? [];
  if (options.length) {
    const shown = options.slice(0, MAX_PROMPT_CHOICES).map((o, i) => `${i + 1}=${oneLine(String(o.label), 80)}`);
    if (options.length > MAX_PROMPT_CHOICES) shown.push(`… ${options.length - MAX_PROMPT_CHOICES} more (${options.length} choices: type a number up to ${options.length}, or the value)`);
    bits.push(shown.join(', '));
  }
  if (f.required) bits.push('required');
  const initial = f.initial === undefined ? '' : ` [${label(Array.isArray(f.initial) ? f.initial.join(',') : String(f.initial))}]`;
  return `${label(f.label)} (${bits.join('; ')})${initial}`;
}

/** Terminal text → the raw value an HTML control would give (empty keeps the pre-filled value). */
function rawValue(f: FormField, answer: string): unknown {
  if (answer === '') return f.initial === undefined ? '' : f.initial;
  if (f.kind === 'boolean') return /^(y|yes|true|1)$/i.test(answer) ? true : /^(n|no|false|0)$/i.test(answer) ? false : answer;
  const pick = (s: string) => {
    const i = Number(s);
    return f.options && Number.isInteger(i) && i >= 1 && i <= f.options.length ? f.options[i - 1].value : s;
  };
  if (f.kind === 'select') return pick(answer);
  if (f.kind === 'multiselect') return answer.split(',').map((s) => pick(s.trim())).filter(Boolean);
  return answer;
}
