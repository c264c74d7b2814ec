/**
 * A sampling reply written by a person instead of a model (pure; no `vscode`): the fields to fill
 * (the reply text, a tool call picked from the offered tools with its arguments as a form from the
 * tool's `inputSchema`, a model name, a stop reason) and the `CreateMessageResult` built from them,
 * checked like any other sampling answer before it is sent. Shared by the round panel's review card
 * and the CLI's terminal.
 *
 * Spec: MCP 2026-07-28, Sampling (`CreateMessageResult`: `role`, `content` with text and `tool_use`
 * blocks, `model`, `stopReason`; `toolChoice.mode` `required` means the reply calls a tool).
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import { coerceFieldValue, type FieldErrors, type RawFormValues } from '../elicitation/formModel';
import { type FormField } from '../elicitation/formField';
import { buildToolArguments } from '../arguments/toolArguments';
import { prepareToolSchema, type PreparedToolSchemaOk, type ToolField } from '../arguments/toolSchema';
import { checkAnswer } from '../inputs/answers';
import { errorMessage } from '../util/errors';
import { isPlainObject } from '../util/json';

/** The model name a written reply carries unless the person types another. */
export const HUMAN_MODEL = 'human';

/** The stop reasons a written reply may give (spec: `CreateMessageResult.stopReason`). */
export const STOP_REASONS = ['endTurn', 'stopSequence', 'maxTokens', 'toolUse'] as const;

/** At most this many of the offered tools can be picked (the others are counted in `toolsLeftOut`). */
export const MAX_WRITABLE_TOOLS = 100;

/** Keys of the reply's own fields (raw values and errors); the tool's arguments come apart. */
export const REPLY_KEYS = { text: 'reply', tool: 'tool', model: 'model', stopReason: 'stopReason' } as const;

/** One offered tool as a written reply can call it: its arguments form, or why it cannot be used. */
export interface WritableTool {
  name: string;
  description?: string;
  /** The arguments form from the tool's `inputSchema` (`prepareToolSchema`). */
  fields: ToolField[];
  /** Why the tool's `inputSchema` cannot be used (then it cannot be picked). */
  problem?: string;
}

/** What the person fills in to write a reply. */
export interface WrittenReplyForm {
  /** The reply text (multi-line). */
  text: FormField;
  /** The tool call: a choice of {@link tools} by index (`"0"`, ...); absent when the request offers none (or `toolChoice` is `none`). */
  tool?: FormField;
  model: FormField;
  stopReason: FormField;
  tools: WritableTool[];
  /** Offered tools beyond {@link MAX_WRITABLE_TOOLS} (or with a duplicate name), left out of the picker. */
  toolsLeftOut: number;
  /** `toolChoice.mode` is `required`: the reply must call a tool. */
  toolRequired: boolean;
}

/** The outcome of {@link WrittenReply.build}: the result to send, or the problems by field. */
export type WrittenOutcome =
  | { ok: true; result: CreateMessageResult }
  /** `errors` by {@link REPLY_KEYS} value (`''` for the reply as a whole); `argumentErrors` by argument key. */
  | { ok: false; errors: FieldErrors; argumentErrors: FieldErrors };

/** A written reply for one request: its form, and the check that builds the answer. */
export interface WrittenReply {
  readonly form: WrittenReplyForm;
  /**
   * Build the answer from the raw values of the form (by {@link REPLY_KEYS}) and of the picked tool's
   * arguments (by argument key). Never throws.
   */
  build(values: RawFormValues, args: RawFormValues): WrittenOutcome;
}

const STOP_LABELS: Record<(typeof STOP_REASONS)[number], string> = {
  endTurn: 'endTurn: the reply is complete',
  stopSequence: 'stopSequence: stopped at a stop sequence',
  maxTokens: 'maxTokens: cut at the token limit',
  toolUse: 'toolUse: the reply asks for a tool call',
};

/** The offered tools a reply may call: those of `params` unless `toolChoice.mode` is `none`, each prepared once. */
function offeredTools(params: CreateMessageRequestParams): {
  tools: WritableTool[];
  prepared: Map<string, PreparedToolSchemaOk>;
  leftOut: number;
} {
  const p = params as CreateMessageRequestParams & Record<string, unknown>;
  const mode = isPlainObject(p.toolChoice) ? p.toolChoice.mode : undefined;
  const offered = Array.isArray(p.tools) && mode !== 'none' ? p.tools : [];
  const tools: WritableTool[] = [];
  const prepared = new Map<string, PreparedToolSchemaOk>();
  let leftOut = 0;
  for (const t of offered) {
    const name = isPlainObject(t) && typeof t.name === 'string' ? t.name : '';
    if (!name || tools.length >= MAX_WRITABLE_TOOLS || tools.some((x) => x.name === name)) {
      leftOut++;
      continue;
    }
    const tool = t as Record<string, unknown>;
    const schema = prepareToolSchema(tool.inputSchema);
    const description = typeof tool.description === 'string' && tool.description ? { description: tool.description } : {};
    if (schema.ok) prepared.set(name, schema);
    tools.push({
      name,
      ...description,
      fields: schema.ok ? schema.fields : [],
      ...(schema.ok ? {} : { problem: `Its input schema cannot be used: ${schema.error}` }),
    });
  }
  return { tools, prepared, leftOut };
}

/**
 * The written reply of `params`: its form (text; a tool call when tools are offered; the model name,
 * {@link HUMAN_MODEL} unless changed; the stop reason, `endTurn` unless changed) and its check.
 * Each offered tool's `inputSchema` is prepared once, in bounded time (`prepareToolSchema`).
 * @param initialText the text the reply opens with (a model's completion the person rewrites)
 */
export function writtenReply(params: CreateMessageRequestParams, initialText?: string): WrittenReply {
  const { tools, prepared, leftOut } = offeredTools(params);
  const p = params as CreateMessageRequestParams & Record<string, unknown>;
  const toolRequired = tools.length > 0 && isPlainObject(p.toolChoice) && p.toolChoice.mode === 'required';
  const form: WrittenReplyForm = {
    text: {
      key: REPLY_KEYS.text,
      label: 'Reply',
      required: false,
      kind: 'text',
      description: 'What the model would answer.',
      ...(initialText ? { initial: initialText } : {}),
    },
    model: {
      key: REPLY_KEYS.model,
      label: 'Model name',
      required: true,
      kind: 'text',
      maxLength: 200,
      initial: HUMAN_MODEL,
      description: `Sent as the reply's model; "${HUMAN_MODEL}" tells the server a person wrote it.`,
    },
    stopReason: {
      key: REPLY_KEYS.stopReason,
      label: 'Stop reason',
      required: true,
      kind: 'select',
      initial: 'endTurn',
      options: STOP_REASONS.map((r) => ({ value: r, label: STOP_LABELS[r] })),
    },
    tools,
    toolsLeftOut: leftOut,
    toolRequired,
  };
  if (tools.length) {
    form.tool = {
      key: REPLY_KEYS.tool,
      label: 'Tool call',
      required: toolRequired,
      kind: 'select',
      // By position: a tool's name may not survive display (bidi controls are removed there), its index does.
      options: tools.map((t, i) => ({ value: String(i), label: t.problem ? `${t.name} (cannot be used)` : t.name })),
      description: toolRequired
        ? 'The server requires a tool call. Nothing is run here: the server receives the call.'
        : 'Optional. Nothing is run here: the server receives the call.',
    };
  }
  return { form, build: (values, args) => build(params, form, prepared, values, args) };
}

/** The offered tool a picked value names: its index in `form.tools` (the picker's option value). */
export function writableTool(form: WrittenReplyForm, picked: unknown): WritableTool | undefined {
  const i = typeof picked === 'string' && /^\d{1,4}$/.test(picked) ? Number(picked) : -1;
  return form.tools[i];
}

function build(
  params: CreateMessageRequestParams,
  form: WrittenReplyForm,
  prepared: ReadonlyMap<string, PreparedToolSchemaOk>,
  values: RawFormValues,
  args: RawFormValues,
): WrittenOutcome {
  const errors: FieldErrors = {};
  let argumentErrors: FieldErrors = {};
  const read = (field: FormField | undefined): unknown => {
    if (!field) return undefined;
    const r = coerceFieldValue(field, values[field.key]);
    if (r.error !== undefined) errors[field.key] = r.error;
    return r.value;
  };
  const text = typeof values[REPLY_KEYS.text] === 'string' ? (values[REPLY_KEYS.text] as string) : '';
  const model = read(form.model);
  const stopReason = read(form.stopReason);
  const picked = read(form.tool);
  const tool = typeof picked === 'string' ? writableTool(form, picked) : undefined;
  const toolName = tool?.name;
  let call: { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> } | undefined;
  if (tool) {
    const schema = prepared.get(tool.name);
    if (!schema)
      errors[REPLY_KEYS.tool] = `${tool.problem ?? 'This tool cannot be used'}. Pick another tool${form.toolRequired ? '' : ' or none'}.`;
    else {
      const outcome = buildToolArguments(schema, args);
      if (outcome.ok) call = { type: 'tool_use', id: `call_${crypto.randomUUID()}`, name: tool.name, input: outcome.args };
      else argumentErrors = outcome.errors;
    }
  }
  if (form.toolRequired && toolName === undefined)
    errors[REPLY_KEYS.tool] = 'The server requires a tool call (toolChoice "required"): pick one of the offered tools.';
  if (!text.trim() && toolName === undefined && errors[REPLY_KEYS.tool] === undefined)
    errors[REPLY_KEYS.text] = form.tool ? 'Write a reply, or pick a tool call.' : 'Write a reply.';
  if (errors[REPLY_KEYS.stopReason] === undefined) {
    if (toolName !== undefined && stopReason !== 'toolUse') errors[REPLY_KEYS.stopReason] = 'A reply with a tool call stops with toolUse.';
    if (toolName === undefined && stopReason === 'toolUse')
      errors[REPLY_KEYS.stopReason] = 'toolUse needs a tool call; pick one, or another stop reason.';
  }
  if (Object.keys(errors).length || Object.keys(argumentErrors).length) return { ok: false, errors, argumentErrors };

  const textBlock = { type: 'text' as const, text };
  const content = call ? [...(text.trim() ? [textBlock] : []), call] : textBlock;
  const result = { role: 'assistant', content, model, stopReason } as CreateMessageResult;
  // The same check as every sampling answer gets before it can reach the wire.
  try {
    return { ok: true, result: checkAnswer({ key: 'reply', method: 'sampling/createMessage', params }, result) as CreateMessageResult };
  } catch (e) {
    return {
      ok: false,
      errors: { '': errorMessage(e).replace(/^Answer to \S+ "[^"]*" is invalid: /, 'This reply cannot be sent: ') },
      argumentErrors: {},
    };
  }
}
