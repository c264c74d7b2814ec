/**
 * `sampling/createMessage` → a language-model chat request, without `vscode` (pure, testable). The
 * reply side (reading the model's stream, the `CreateMessageResult`) is `lmCompletion.ts`.
 *
 * The request side turns MCP `CreateMessageRequestParams` into a neutral {@link LmRequest} that the
 * VS Code adapter (`src/vscode/sampling/lmMapping.ts`) maps 1:1 onto `vscode.LanguageModelChatMessage` and
 * `LanguageModelChatRequestOptions`. The response side reads the model's stream, enforces `maxTokens`
 * and `stopSequences` itself (models may ignore options), and builds the `CreateMessageResult`.
 *
 * Spec: MCP 2026-07-28, Sampling (`CreateMessageRequestParams`, `SamplingMessage`, `ToolUseContent`,
 * `ToolResultContent`, `ToolChoice`, `CreateMessageResult`). See docs/field-cases.md, F6.
 */
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { HostError } from '../util/errors';
import { isPlainObject } from '../util/json';

/** A text or image piece of a message or of a tool result. */
export type LmContentPart = { kind: 'text'; text: string } | { kind: 'image'; data: Uint8Array; mimeType: string };

/** One part of a message sent to the model (maps to `LanguageModelTextPart` / `DataPart` / `ToolCallPart` / `ToolResultPart`). */
export type LmPart =
  | LmContentPart
  | { kind: 'toolCall'; callId: string; name: string; input: Record<string, unknown> }
  | { kind: 'toolResult'; callId: string; content: LmContentPart[] };

/** A message of the LM API: only user and assistant exist (no system role). */
export interface LmMessage {
  role: 'user' | 'assistant';
  parts: LmPart[];
}

/** A tool offered to the model (`LanguageModelChatTool`). */
export interface LmTool {
  name: string;
  description: string;
  inputSchema?: Record<string, unknown>;
}

/** What the adapter needs to know about the target model to map a request. */
export interface LmModelFeatures {
  id: string;
  /** Accepts image input. Only `true` lets images through (unknown counts as no). */
  imageInput?: boolean;
  /** Supports tool calling. Only an explicit `false` refuses tools (unknown: they are sent). */
  toolCalling?: boolean;
}

/** A model request, ready to be mapped onto `LanguageModelChat.sendRequest`. */
export interface LmRequest {
  /** The systemPrompt (if any) first, as a marked user message, then the server's messages in order. */
  messages: LmMessage[];
  /**
   * `LanguageModelChatRequestOptions.modelOptions`: `maxTokens` always (the request's limit, in
   * tokens), `temperature` when the request has one. The LM API defines no key names: these are the
   * names this host uses, and providers may ignore them; `maxTokens` is enforced locally anyway.
   */
  modelOptions: { maxTokens: number; temperature?: number };
  /** Tools offered to the model; absent when the request has none or `toolChoice.mode` is `none`. */
  tools?: LmTool[];
  /** `LanguageModelChatToolMode`: `required` for `toolChoice.mode === "required"`, else `auto`. Set only with `tools`. */
  toolMode?: 'auto' | 'required';
  /** The limit to enforce on the reply (tokens, counted with the model's own tokenizer). */
  maxTokens: number;
  /** Non-empty stop sequences; the reply is cut before the first occurrence of any of them. */
  stopSequences: string[];
}

/**
 * Header of the instruction message that carries `systemPrompt`: the LM API has no system role, so the
 * system prompt goes first as a user message, clearly marked as instructions (docs/field-cases.md, F6).
 */
export const SYSTEM_PROMPT_HEADER = '[System instructions for this conversation. Follow them.]';

/** The text of the instruction message for a system prompt. */
export function systemPromptText(systemPrompt: string): string {
  return `${SYSTEM_PROMPT_HEADER}\n${systemPrompt}`;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64(data: unknown, where: string): Uint8Array {
  const s = typeof data === 'string' ? data.replace(/\s+/g, '') : undefined;
  if (s === undefined || s.length % 4 === 1 || !BASE64.test(s)) throw new HostError('protocol', `${where}: data is not base64`);
  return new Uint8Array(Buffer.from(s, 'base64'));
}

/**
 * Map a `sampling/createMessage` request onto a model request: the system prompt becomes a marked
 * first user message (the LM API has no system role), each message keeps its role and its blocks in
 * order, the limits go into `modelOptions`, and the tools with `toolChoice` become the LM API's tools
 * and tool mode. `includeContext` and `metadata` are not used (a client may ignore them, and this one
 * declares no `sampling.context`).
 *
 * @throws HostError `protocol` when the request is malformed (no positive integer `maxTokens`, no
 *   messages array, unknown role or content type, `tool_use` in a user message, `tool_result` in an
 *   assistant message, bad base64, `toolChoice: required` without tools)
 * @throws HostError `declined` when the model cannot take the request: audio (the LM API has no audio
 *   input), an image for a model that does not declare image input, tools for a model that declares
 *   no tool calling. The message names the model, so the person can pick another one.
 */
export function buildLmRequest(params: CreateMessageRequestParams, model: LmModelFeatures): LmRequest {
  const p = params as CreateMessageRequestParams & Record<string, unknown>;
  const maxTokens = p.maxTokens;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new HostError('protocol', `sampling request: maxTokens must be a positive integer, got ${JSON.stringify(maxTokens)}`);
  }
  if (!Array.isArray(p.messages)) throw new HostError('protocol', 'sampling request: messages must be an array');

  const messages: LmMessage[] = [];
  if (typeof p.systemPrompt === 'string' && p.systemPrompt.trim()) {
    messages.push({ role: 'user', parts: [{ kind: 'text', text: systemPromptText(p.systemPrompt) }] });
  }

  const image = (b: Record<string, unknown>, where: string): LmContentPart => {
    if (typeof b.mimeType !== 'string' || !b.mimeType.toLowerCase().startsWith('image/')) {
      throw new HostError('protocol', `${where}: image needs an image/* mimeType, got ${JSON.stringify(b.mimeType)}`);
    }
    if (model.imageInput !== true) {
      throw new HostError(
        'declined',
        `${where} is an image, but the model "${model.id}" does not accept image input. Pick a model that does, or decline.`,
      );
    }
    return { kind: 'image', data: decodeBase64(b.data, where), mimeType: b.mimeType };
  };
  const audio = (where: string) =>
    new HostError('declined', `${where} is audio, which VS Code language models cannot take as input; this request cannot be answered.`);

  p.messages.forEach((m: unknown, i: number) => {
    const at = `message ${i + 1}`;
    if (!isPlainObject(m)) throw new HostError('protocol', `sampling request: ${at} is not an object`);
    const role = m.role;
    if (role !== 'user' && role !== 'assistant')
      throw new HostError('protocol', `sampling request: ${at} has role ${JSON.stringify(role)} (user or assistant expected)`);
    const blocks = Array.isArray(m.content) ? m.content : [m.content];
    const parts: LmPart[] = blocks.map((b: unknown, j: number): LmPart => {
      const where = `sampling request: ${at}${blocks.length > 1 ? `, block ${j + 1}` : ''}`;
      if (!isPlainObject(b)) throw new HostError('protocol', `${where} is not a content block`);
      switch (b.type) {
        case 'text':
          if (typeof b.text !== 'string') throw new HostError('protocol', `${where}: text must be a string`);
          return { kind: 'text', text: b.text };
        case 'image':
          return image(b, where);
        case 'audio':
          throw audio(where);
        case 'tool_use':
          if (role !== 'assistant') throw new HostError('protocol', `${where}: tool_use belongs in an assistant message`);
          if (typeof b.id !== 'string' || typeof b.name !== 'string' || !isPlainObject(b.input)) {
            throw new HostError('protocol', `${where}: tool_use needs a string id, a string name and an input object`);
          }
          return { kind: 'toolCall', callId: b.id, name: b.name, input: b.input };
        case 'tool_result': {
          if (role !== 'user') throw new HostError('protocol', `${where}: tool_result belongs in a user message`);
          if (typeof b.toolUseId !== 'string' || !Array.isArray(b.content)) {
            throw new HostError('protocol', `${where}: tool_result needs a string toolUseId and a content array`);
          }
          return { kind: 'toolResult', callId: b.toolUseId, content: toolResultContent(b, where, image, audio) };
        }
        default:
          throw new HostError('protocol', `${where} has unknown content type ${JSON.stringify(b.type)}`);
      }
    });
    messages.push({ role, parts });
  });
  if (!messages.length) throw new HostError('protocol', 'sampling request: no messages and no systemPrompt, nothing to send');

  const modelOptions: LmRequest['modelOptions'] = { maxTokens };
  if (typeof p.temperature === 'number' && Number.isFinite(p.temperature)) modelOptions.temperature = p.temperature;

  const request: LmRequest = {
    messages,
    modelOptions,
    maxTokens,
    stopSequences: Array.isArray(p.stopSequences) ? p.stopSequences.filter((s): s is string => typeof s === 'string' && s.length > 0) : [],
  };

  const mode = isPlainObject(p.toolChoice) ? (p.toolChoice.mode ?? 'auto') : 'auto';
  if (mode !== 'auto' && mode !== 'required' && mode !== 'none')
    throw new HostError('protocol', `sampling request: unknown toolChoice.mode ${JSON.stringify(mode)}`);
  const tools = Array.isArray(p.tools) ? p.tools : [];
  if (mode === 'required' && !tools.length)
    throw new HostError('protocol', 'sampling request: toolChoice is "required" but no tools were given');
  if (tools.length && mode !== 'none') {
    if (model.toolCalling === false) {
      throw new HostError(
        'declined',
        `The sampling request offers tools, but the model "${model.id}" does not support tool calling. Pick a model that does, or decline.`,
      );
    }
    request.tools = tools.map((t: unknown, i: number): LmTool => {
      if (!isPlainObject(t) || typeof t.name !== 'string' || !t.name)
        throw new HostError('protocol', `sampling request: tools[${i}] needs a name`);
      const description =
        typeof t.description === 'string' && t.description ? t.description : typeof t.title === 'string' && t.title ? t.title : t.name;
      return { name: t.name, description, ...(isPlainObject(t.inputSchema) ? { inputSchema: t.inputSchema } : {}) };
    });
    request.toolMode = mode === 'required' ? 'required' : 'auto';
  }
  return request;
}

/** The content of a `tool_result` as text and image parts (the LM API's tool result holds no other kind). */
function toolResultContent(
  b: Record<string, unknown>,
  where: string,
  image: (b: Record<string, unknown>, where: string) => LmContentPart,
  audio: (where: string) => HostError,
): LmContentPart[] {
  const out: LmContentPart[] = [];
  if (b.isError === true) out.push({ kind: 'text', text: '(The tool reported an error.)' });
  (b.content as unknown[]).forEach((c, k) => {
    const w = `${where}, tool_result content ${k + 1}`;
    if (!isPlainObject(c)) throw new HostError('protocol', `${w} is not a content block`);
    switch (c.type) {
      case 'text':
        out.push({ kind: 'text', text: typeof c.text === 'string' ? c.text : '' });
        break;
      case 'image':
        out.push(image(c, w));
        break;
      case 'audio':
        throw audio(w);
      case 'resource_link':
        out.push({ kind: 'text', text: `[resource link: ${String(c.uri)}${typeof c.name === 'string' ? ` (${c.name})` : ''}]` });
        break;
      case 'resource': {
        const r = isPlainObject(c.resource) ? c.resource : {};
        out.push({
          kind: 'text',
          text:
            typeof r.text === 'string'
              ? r.text
              : `[embedded resource ${String(r.uri)}${typeof r.mimeType === 'string' ? ` (${r.mimeType})` : ''}: binary content not shown]`,
        });
        break;
      }
      default:
        throw new HostError('protocol', `${w} has unknown content type ${JSON.stringify(c.type)}`);
    }
  });
  if (!(b.content as unknown[]).length && b.structuredContent !== undefined)
    out.push({ kind: 'text', text: JSON.stringify(b.structuredContent) });
  return out;
}
