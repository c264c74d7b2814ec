/**
 * The `vscode.lm` side of sampling: a `LanguageModelChat` as a core {@link SamplingModel}. Maps the
 * neutral {@link LmRequest} 1:1 onto `LanguageModelChatMessage` parts and request options, turns
 * the reply stream into core parts, and links cancellation (AbortSignal → CancellationTokenSource).
 * Stable API of VS Code 1.106 only.
 */
import * as vscode from 'vscode';
import { onAbort } from '../../core/util/async';
import { HostError } from '../../core/util/errors';
import type { SamplingModel } from '../../core/sampling/samplingFlow';
import type { LmResponsePart } from '../../core/sampling/lmCompletion';
import type { LmContentPart, LmMessage, LmRequest } from '../../core/sampling/lmRequest';

/**
 * What a chat model says it can do. The stable `LanguageModelChat` has no `capabilities`; VS Code
 * (checked in 1.139) still puts `{supportsImageToText, supportsToolCalling}` on the object it returns,
 * so it is read defensively: only a boolean counts, anything else is "unknown".
 */
export function modelCapabilities(chat: vscode.LanguageModelChat): { imageInput?: boolean; toolCalling?: boolean } {
  const caps = (chat as unknown as { capabilities?: Record<string, unknown> }).capabilities;
  const bool = (...v: unknown[]) => v.find((x): x is boolean => typeof x === 'boolean');
  if (!caps || typeof caps !== 'object') return {};
  const imageInput = bool(caps.supportsImageToText, caps.imageInput);
  const toolCalling = bool(caps.supportsToolCalling, typeof caps.toolCalling === 'number' ? caps.toolCalling > 0 : caps.toolCalling);
  return { ...(imageInput !== undefined ? { imageInput } : {}), ...(toolCalling !== undefined ? { toolCalling } : {}) };
}

function contentPart(p: LmContentPart): vscode.LanguageModelTextPart | vscode.LanguageModelDataPart {
  return p.kind === 'text' ? new vscode.LanguageModelTextPart(p.text) : vscode.LanguageModelDataPart.image(p.data, p.mimeType);
}

/** Core messages → `LanguageModelChatMessage.User/Assistant` with text, data (image), tool call and tool result parts. */
export function toChatMessages(messages: readonly LmMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map((m) => {
    const parts = m.parts.map((p) => {
      switch (p.kind) {
        case 'toolCall':
          return new vscode.LanguageModelToolCallPart(p.callId, p.name, p.input);
        case 'toolResult':
          return new vscode.LanguageModelToolResultPart(p.callId, p.content.map(contentPart));
        default:
          return contentPart(p);
      }
    });
    // buildLmRequest puts tool calls only in assistant messages and tool results only in user ones.
    return m.role === 'user'
      ? vscode.LanguageModelChatMessage.User(
          parts as (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart | vscode.LanguageModelDataPart)[],
        )
      : vscode.LanguageModelChatMessage.Assistant(
          parts as (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelDataPart)[],
        );
  });
}

/** Core request → `LanguageModelChatRequestOptions` (modelOptions as built; tools and tool mode only when tools are offered). */
export function toRequestOptions(request: LmRequest, justification: string): vscode.LanguageModelChatRequestOptions {
  return {
    justification,
    modelOptions: { ...request.modelOptions },
    ...(request.tools
      ? {
          tools: request.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
          toolMode: request.toolMode === 'required' ? vscode.LanguageModelChatToolMode.Required : vscode.LanguageModelChatToolMode.Auto,
        }
      : {}),
  };
}

/** A `LanguageModelError` (or other failure of `sendRequest`) as a HostError with a message to show. */
function requestError(chat: vscode.LanguageModelChat, e: unknown): HostError {
  if (e instanceof HostError) return e;
  const code = e instanceof vscode.LanguageModelError ? e.code : undefined;
  const why =
    code === vscode.LanguageModelError.NoPermissions.name
      ? 'VS Code did not allow MCP Roundtrip to use it (no permission)'
      : code === vscode.LanguageModelError.Blocked.name
        ? 'the request was blocked (quota or rate limit)'
        : code === vscode.LanguageModelError.NotFound.name
          ? 'the model is no longer available'
          : e instanceof Error
            ? e.message
            : String(e);
  return new HostError('declined', `The language model "${chat.id}" failed: ${why}`);
}

/** A CancellationTokenSource cancelled when `signal` aborts (or by `cancel()`); `dispose()` unlinks it. */
function linkedToken(signal: AbortSignal): { token: vscode.CancellationToken; cancel(): void; dispose(): void } {
  const cts = new vscode.CancellationTokenSource();
  const unlink = onAbort(signal, () => cts.cancel());
  return {
    token: cts.token,
    cancel: () => cts.cancel(),
    dispose: () => {
      unlink();
      cts.dispose();
    },
  };
}

/** One part of `response.stream` as a core part (by class, with a shape check as fallback). */
export function responsePart(part: unknown): LmResponsePart {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart)
    return { kind: 'toolCall', callId: part.callId, name: part.name, input: { ...(part.input as Record<string, unknown>) } };
  const p = part as { value?: unknown; callId?: unknown; name?: unknown; input?: unknown } | null;
  if (p && typeof p === 'object') {
    if (typeof p.callId === 'string' && typeof p.name === 'string' && p.input && typeof p.input === 'object') {
      return { kind: 'toolCall', callId: p.callId, name: p.name, input: { ...(p.input as Record<string, unknown>) } };
    }
    if (typeof p.value === 'string' && !('mimeType' in p)) return { kind: 'text', text: p.value };
  }
  return { kind: 'other' };
}

/**
 * Wrap a chat model for the core. `send` maps the request, calls `sendRequest` with a token
 * cancelled by the signal, and yields text and tool-call parts of `response.stream` (other parts as
 * `other`); the token stays linked until the stream is finished or abandoned.
 */
export function toSamplingModel(chat: vscode.LanguageModelChat): SamplingModel {
  return {
    id: chat.id,
    name: chat.name,
    family: chat.family,
    vendor: chat.vendor,
    maxInputTokens: chat.maxInputTokens,
    ...modelCapabilities(chat),
    async send(request, signal, justification) {
      const link = linkedToken(signal);
      let response: vscode.LanguageModelChatResponse;
      try {
        response = await chat.sendRequest(toChatMessages(request.messages), toRequestOptions(request, justification), link.token);
      } catch (e) {
        link.dispose();
        throw requestError(chat, e);
      }
      return (async function* (): AsyncGenerator<LmResponsePart> {
        let finished = false;
        try {
          for await (const part of response.stream) yield responsePart(part);
          finished = true;
        } catch (e) {
          throw requestError(chat, e);
        } finally {
          // Abandoned (reply cut, cancelled): stop the model before unlinking.
          if (!finished) link.cancel();
          link.dispose();
        }
      })();
    },
    async countTokens(text, signal) {
      const link = linkedToken(signal);
      try {
        return await chat.countTokens(text, link.token);
      } finally {
        link.dispose();
      }
    },
  };
}
