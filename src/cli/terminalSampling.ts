/**
 * A sampling request answered at the terminal (CLI on a TTY without `--answers`): the CLI has no
 * language model, so the person sees the prompt and writes the reply, as in the review card's
 * "Write the reply": the text (several lines), a tool call picked from the offered tools with its
 * arguments asked field by field, the model name (`human`) and the stop reason, checked by
 * `core/sampling/writtenReply.ts` before it is sent. Server text is made safe for the terminal.
 *
 * Spec: MCP 2026-07-28, Sampling (human in the loop; `CreateMessageResult`).
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import type { RawFormValues } from '../core/elicitation/formModel';
import type { FormField } from '../core/elicitation/formField';
import type { ToolField } from '../core/arguments/toolSchema';
import { noteAnswer } from '../core/inputs/answers';
import type { InputContext } from '../core/inputs/inputProvider';
import { contentBlocks } from '../core/sampling/modelNeeds';
import { REPLY_KEYS, writableTool, writtenReply, type WrittenReply } from '../core/sampling/writtenReply';
import { HostError } from '../core/util/errors';
import { isPlainObject } from '../core/util/json';
import { askChoice, type Ask } from './terminalPrompt';
import { fieldPrompt, label, promptText, rawValue, terminalText } from './terminalText';
import { oneLine } from '../core/util/shownText';
import { cliText, hostText } from './messages';

/** Most lines, and characters, of a reply typed at the terminal. */
export const MAX_REPLY_LINES = 10_000;
export const MAX_REPLY_CHARS = 1_000_000;

/** Most messages, and offered tools, the terminal's review lists; the rest are counted. */
export const MAX_REVIEW_MESSAGES = 50;
export const MAX_REVIEW_TOOLS = 20;
/** Most characters the whole review shows (each text is cut at MAX_PROMPT_TEXT too); past it the rest is counted. */
export const MAX_REVIEW_CHARS = 100_000;

/**
 * Server text of the review: cut like a prompt's ({@link promptText}), runs of blank lines collapsed
 * to one (a run of line breaks would scroll the host's own header away).
 */
function reviewText(s: unknown): string {
  const lines = String(s ?? '').replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n');
  return promptText(lines.replace(/\n(?:[^\S\n]*\n)+/g, '\n\n'), '    ');
}

/**
 * The request as the person reads it: system prompt, messages (text; other blocks named), limits, tools;
 * bounded (at most {@link MAX_REVIEW_MESSAGES} messages, {@link MAX_REVIEW_TOOLS} tools,
 * {@link MAX_REVIEW_CHARS} characters in all, the rest counted).
 */
function describeRequest(params: CreateMessageRequestParams): string {
  const p = params as CreateMessageRequestParams & Record<string, unknown>;
  const lines: string[] = [];
  if (typeof p.systemPrompt === 'string' && p.systemPrompt) lines.push(`  System prompt: ${reviewText(p.systemPrompt)}`);
  const messages: unknown[] = Array.isArray(p.messages) ? p.messages : [];
  messages.slice(0, MAX_REVIEW_MESSAGES).forEach((m: unknown, i: number) => {
    const role = isPlainObject(m) ? label(m.role) : '?';
    for (const b of contentBlocks(isPlainObject(m) ? m.content : undefined).slice(0, MAX_REVIEW_MESSAGES)) {
      const text =
        isPlainObject(b) && b.type === 'text'
          ? reviewText(b.text)
          : `(${label(isPlainObject(b) ? b.type : 'unknown')} content${isPlainObject(b) && typeof b.mimeType === 'string' ? `, ${label(b.mimeType)}` : ''})`;
      lines.push(`  Message ${i + 1} (${role}): ${text}`);
    }
  });
  if (messages.length > MAX_REVIEW_MESSAGES) lines.push(`  … and ${messages.length - MAX_REVIEW_MESSAGES} more messages, not shown`);
  if (typeof p.maxTokens === 'number') lines.push(`  Max tokens: ${p.maxTokens}`);
  const tools: unknown[] = Array.isArray(p.tools) ? p.tools : [];
  for (const t of tools.slice(0, MAX_REVIEW_TOOLS))
    if (isPlainObject(t))
      lines.push(`  Tool offered: ${label(t.name)}${typeof t.description === 'string' ? ` — ${oneLine(t.description, 300)}` : ''}`);
  if (tools.length > MAX_REVIEW_TOOLS) lines.push(`  … and ${tools.length - MAX_REVIEW_TOOLS} more tools offered, not shown`);
  const text = lines.join('\n');
  return text.length > MAX_REVIEW_CHARS
    ? `${text.slice(0, MAX_REVIEW_CHARS)}\n  … ${text.length - MAX_REVIEW_CHARS} more characters of the request, not shown`
    : text;
}

/** The host's header of the question, repeated next to it (server text above may imitate the host's lines). */
function header(ctx: InputContext): string {
  return `[${label(ctx.round.server)} sampling "${oneLine(ctx.key, 80)}"]`;
}

/** Throws HostError `declined` when the person typed `:decline` or `:cancel`. */
function refused(answer: string, ctx: InputContext): string {
  if (answer === ':decline' || answer === ':cancel')
    throw declined(ctx, answer === ':decline' ? 'you typed :decline' : 'you typed :cancel');
  return answer;
}

function declined(ctx: InputContext, why: string): HostError {
  return new HostError('declined', `You declined the sampling request "${ctx.key}" of ${ctx.round.server} (${why}).`);
}

/**
 * Show the request and let the person write the reply.
 * @returns the checked answer; its log line says a person wrote it at the terminal
 * @throws HostError `declined` (no, `:decline` or `:cancel`), or what `ask` throws (cancelled)
 */
export async function writeReplyAtTerminal(
  params: CreateMessageRequestParams,
  ctx: InputContext,
  out: NodeJS.WritableStream,
  ask: Ask,
): Promise<CreateMessageResult> {
  out.write(
    `\n${cliText('{0} asks ({1} {2}, round {3}, "{4}") for a language model\'s reply (sampling):', label(ctx.round.server), ctx.round.method, label(ctx.round.target), ctx.round.round, label(ctx.key))}\n${describeRequest(params)}\n`,
  );
  out.write(`  ${cliText('The CLI has no language model: you can write the reply yourself (type :decline at any prompt).')}\n`);
  const write = await askChoice(
    ask,
    out,
    `  ${header(ctx)}: ${cliText('write the reply? [y]es / [n]o (decline):')} `,
    { y: true, yes: true, n: false, no: false, ':decline': false, ':cancel': false },
    ctx.signal,
  );
  if (!write) throw declined(ctx, 'you answered no at the terminal');
  const reply = writtenReply(params);
  const values: Record<string, unknown> = {};
  const args: Record<string, unknown> = {};
  let redo = new Set<string>([REPLY_KEYS.text, REPLY_KEYS.tool, REPLY_KEYS.model, REPLY_KEYS.stopReason, 'arguments']);
  for (;;) {
    await askReply(reply, redo, values, args, ctx, out, ask);
    const outcome = reply.build(values as RawFormValues, args as RawFormValues);
    if (outcome.ok) {
      noteAnswer(outcome.result, 'written by a person at the terminal (the CLI has no language model)');
      return outcome.result;
    }
    for (const [k, m] of Object.entries(outcome.errors)) out.write(`    ${k || cliText('reply')}: ${terminalText(hostText(m), '    ')}\n`);
    for (const [k, m] of Object.entries(outcome.argumentErrors))
      out.write(`    ${cliText('argument {0}', label(k) || cliText('(arguments)'))}: ${terminalText(hostText(m), '    ')}\n`);
    if (outcome.errors[''] !== undefined) throw new HostError('protocol', `the written reply cannot be sent: ${outcome.errors['']}`);
    redo = new Set([...Object.keys(outcome.errors), ...(Object.keys(outcome.argumentErrors).length ? ['arguments'] : [])]);
  }
}

/** Ask the parts of the reply named in `redo` (all of them the first time); Enter keeps a value in [brackets]. */
async function askReply(
  reply: WrittenReply,
  redo: ReadonlySet<string>,
  values: Record<string, unknown>,
  args: Record<string, unknown>,
  ctx: InputContext,
  out: NodeJS.WritableStream,
  ask: Ask,
): Promise<void> {
  const { form } = reply;
  if (redo.has(REPLY_KEYS.text)) values[REPLY_KEYS.text] = await askText(ctx, ask);
  if (form.tool && redo.has(REPLY_KEYS.tool))
    values[REPLY_KEYS.tool] = rawValue(form.tool, refused(await ask(`  ${fieldPrompt(form.tool)}: `, ctx.signal), ctx));
  const tool = writableTool(form, values[REPLY_KEYS.tool]);
  if (tool && (redo.has(REPLY_KEYS.tool) || redo.has('arguments'))) {
    if (tool.problem) out.write(`  ${terminalText(tool.problem, '    ')}\n`);
    for (const f of tool.fields) {
      // Each argument is checked as it is typed (the rules of the tool's inputSchema), as form fields are.
      const problem = (value: unknown) => {
        const outcome = reply.build(values as RawFormValues, { ...args, [f.key]: value } as RawFormValues);
        return outcome.ok ? undefined : outcome.argumentErrors[f.key];
      };
      args[f.key] = await askArgument(f, args[f.key], problem, ctx, out, ask);
    }
  }
  if (redo.has(REPLY_KEYS.model))
    values[REPLY_KEYS.model] = rawValue(
      withInitial(form.model, values[REPLY_KEYS.model]),
      refused(await ask(`  ${fieldPrompt(withInitial(form.model, values[REPLY_KEYS.model]))}: `, ctx.signal), ctx),
    );
  if (redo.has(REPLY_KEYS.stopReason) || redo.has(REPLY_KEYS.tool)) {
    const stop = withInitial(form.stopReason, tool ? 'toolUse' : 'endTurn');
    values[REPLY_KEYS.stopReason] = rawValue(stop, refused(await ask(`  ${fieldPrompt(stop)}: `, ctx.signal), ctx));
  }
}

/** A field whose [bracketed] default is `initial` (what was typed last, or what fits the tool call). */
const withInitial = (f: FormField, initial: unknown): FormField => (typeof initial === 'string' && initial !== '' ? { ...f, initial } : f);

/** The reply text, line by line until a line holding only "." (bounded). */
async function askText(ctx: InputContext, ask: Ask): Promise<string> {
  const lines: string[] = [];
  let chars = 0;
  for (let n = 1; n <= MAX_REPLY_LINES; n++) {
    const line = await ask(`  ${cliText('Reply, line {0} (a line with only "." ends it):', n)} `, ctx.signal, true);
    const trimmed = line.trim();
    if (trimmed === '.') break;
    refused(trimmed, ctx);
    chars += line.length + 1;
    if (chars > MAX_REPLY_CHARS) throw new HostError('usage', `the reply is longer than ${MAX_REPLY_CHARS} characters`);
    lines.push(line);
  }
  return lines.join('\n');
}

/**
 * One argument of the tool call (JSON text for those a form cannot express), asked until `problem`
 * finds none; Enter keeps the last value.
 */
async function askArgument(
  f: ToolField,
  previous: unknown,
  problem: (value: unknown) => string | undefined,
  ctx: InputContext,
  out: NodeJS.WritableStream,
  ask: Ask,
): Promise<unknown> {
  if (f.description) out.write(`  ${label(f.label)}: ${terminalText(f.description, '    ')}\n`);
  const field = (previous !== undefined && previous !== '' ? { ...f, initial: previous } : f) as FormField;
  for (;;) {
    const value = rawValue(field, refused(await ask(`  ${fieldPrompt(field)}: `, ctx.signal), ctx));
    const why = problem(value);
    if (why === undefined) return value;
    out.write(`    ${terminalText(hostText(why), '    ')}\n`);
  }
}
