/**
 * `@roundtrip`, a chat participant that runs its own tool loop with the chat's model: the tools of
 * the servers in chat (`chatExposure.ts`) go to `request.model.sendRequest` as the participant's own
 * tools; each tool call the model makes, once the person allows it (`toolConsent.ts`), runs through the host's MRTR driver (`chatCalls.ts`), its
 * rounds answered in the round panel, its progress and its result streamed into the chat, the result
 * handed back to the model; until the model answers without a tool call. The chat's stop button
 * cancels the model request and the running call (its panel closes, the log says cancelled).
 *
 * Works with any language model provider (no Copilot needed) and with VS Code's MCP policy blocking
 * the bridge: the participant calls the servers itself. Stable API only.
 */
import * as vscode from 'vscode';
import { modelToolNames, type NamedTool } from '../../core/chat/toolNames';
import { HostError, errorMessage } from '../../core/util/errors';
import { isPlainObject } from '../../core/util/json';
import type { ServerRegistry } from '../servers/serverRegistry';
import type { ServerEntry } from '../servers/serverEntry';
import { notificationText } from '../shared/notificationText';
import type { ChatCalls } from './chatCalls';
import type { ChatExposure } from './chatExposure';
import { resultForModel, streamToolResult } from './chatResults';
import type { ChatToolConsent } from './toolConsent';
import { callableTools } from '../../core/connection/toolVisibility';
import { appResourceUri } from '../../core/apps/appTool';
import { appsEnabled, OPEN_CHAT_APP_COMMAND, type ChatAppCall } from '../apps/appsSetting';
import type { ChatSkills, SkillOffer } from './chatSkills';

/** The participant's id (`contributes.chatParticipants`). */
export const PARTICIPANT_ID = 'mcpRoundtrip.roundtrip';
/** Model turns one request may take (each may call tools) before the participant stops. */
export const MAX_MODEL_TURNS = 8;

/** What the participant works with. */
export interface ParticipantDeps {
  registry: ServerRegistry;
  exposure: ChatExposure;
  calls: ChatCalls;
  /** Where images of results are copied for a reference. */
  imageDir: vscode.Uri;
  /** Asks the person before a tool the model called runs. */
  consent: Pick<ChatToolConsent, 'mayRun'>;
  /** The skills of the servers in chat (`read_skill`, `read_skill_file`), when the host serves them. */
  skills?: ChatSkills;
}

/** A tool the model may call: its model-facing definition and where it lives. */
interface OfferedTool extends NamedTool {
  entry: ServerEntry;
  definition: vscode.LanguageModelChatTool;
  /** The tool names an MCP App (`_meta.ui.resourceUri`). */
  hasApp: boolean;
  /** The server marks the tool `annotations.readOnlyHint: true` (a lasting rule may allow such tools). */
  readOnly: boolean;
}

/** Create `@roundtrip`. */
export function createParticipant(deps: ParticipantDeps): vscode.ChatParticipant {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) =>
    handle(deps, request, context, stream, token),
  );
  participant.iconPath = new vscode.ThemeIcon('arrow-swap');
  return participant;
}

async function handle(
  deps: ParticipantDeps,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const abort = new AbortController();
  const sub = token.onCancellationRequested(() => abort.abort());
  try {
    // The default rule's eras, learnt now that chat needs them (connecting nothing before: `chatExposure.ts`).
    const pending = deps.exposure.pending();
    if (pending.length) {
      stream.progress(vscode.l10n.t('Learning which servers speak only 2026-07-28'));
      await deps.exposure.learnEras(pending, abort.signal);
    }
    stream.progress(vscode.l10n.t('Listing the tools of the servers in chat'));
    const tools = await offeredTools(deps, stream);
    const skills = await deps.skills?.offer(deps.exposure.exposed());
    if (tools.length === 0 && !skills) {
      stream.markdown(
        vscode.l10n.t(
          'No server of MCP Roundtrip is in chat, so there is no tool to call. Choose the servers with the setting `{0}` (the MCP Roundtrip view says why each server is or is not in chat).',
          'mcpRoundtrip.chat.exposeServers',
        ),
      );
      return {};
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    const messages = [
      ...(skills ? [vscode.LanguageModelChatMessage.User(skills.intro)] : []),
      ...historyMessages(context),
      vscode.LanguageModelChatMessage.User(request.prompt),
    ];
    const options: vscode.LanguageModelChatRequestOptions = {
      tools: [...(skills?.tools ?? []), ...tools.map((t) => t.definition)],
      justification: vscode.l10n.t('MCP Roundtrip calls the tools of your MCP servers for this chat request.'),
    };
    for (let turn = 0; turn < MAX_MODEL_TURNS; turn++) {
      const response = await request.model.sendRequest(messages, options, token);
      const said: vscode.LanguageModelTextPart[] = [];
      const asked: vscode.LanguageModelToolCallPart[] = [];
      for await (const part of response.stream) {
        if (isToolCall(part)) asked.push(part);
        else if (isText(part)) {
          said.push(part);
          stream.markdown(part.value);
        }
      }
      if (asked.length === 0 || token.isCancellationRequested) return {};
      stream.markdown('\n\n');
      messages.push(vscode.LanguageModelChatMessage.Assistant([...said, ...asked]));
      const results: vscode.LanguageModelToolResultPart[] = [];
      for (const call of asked) {
        const outcome = skills?.handles(call.name)
          ? await runSkillTool(skills, call, stream, abort.signal)
          : await runToolCall(deps, byName.get(call.name), call, stream, abort.signal);
        if (!outcome) return {};
        results.push(outcome);
      }
      messages.push(vscode.LanguageModelChatMessage.User(results));
    }
    stream.markdown(`\n\n_${vscode.l10n.t('Stopped after {0} model turns with tool calls.', MAX_MODEL_TURNS)}_`);
    return {};
  } catch (e) {
    if (token.isCancellationRequested) return {};
    return { errorDetails: { message: `MCP Roundtrip: ${errorMessage(e)}` } };
  } finally {
    sub.dispose();
  }
}

/**
 * Run one tool call of the model and stream it into the chat.
 * @returns the result for the model, or `undefined` when the chat was stopped
 */
async function runToolCall(
  deps: ParticipantDeps,
  tool: OfferedTool | undefined,
  call: vscode.LanguageModelToolCallPart,
  stream: vscode.ChatResponseStream,
  signal: AbortSignal,
): Promise<vscode.LanguageModelToolResultPart | undefined> {
  if (!tool) return errorForModel(call, `there is no tool named ${call.name}`);
  const args = isPlainObject(call.input) ? call.input : {};
  if (!(await deps.consent.mayRun(tool.entry, tool.tool, args, tool.readOnly))) {
    stream.markdown(
      `_${vscode.l10n.t('{0} ({1}) was not run: you did not allow it.', escapeMarkdown(tool.tool), escapeMarkdown(tool.server))}_\n\n`,
    );
    return errorForModel(call, 'the person did not allow this tool call; do not call it again unless they ask');
  }
  stream.progress(vscode.l10n.t('Calling {0} on {1}', tool.tool, tool.server));
  try {
    const result = await deps.calls.callTool(
      tool.entry,
      { name: tool.tool, arguments: args },
      { signal, progress: (text) => stream.progress(text), from: 'chat', inputSchema: tool.definition.inputSchema },
    );
    stream.markdown(`**${escapeMarkdown(tool.tool)}** (${escapeMarkdown(tool.server)}):\n\n`);
    await streamToolResult(stream, result, deps.imageDir);
    if (tool.hasApp && appsEnabled()) {
      const app: ChatAppCall = { server: tool.server, tool: tool.tool, arguments: args, result };
      stream.button({ command: OPEN_CHAT_APP_COMMAND, title: vscode.l10n.t('Open App'), arguments: [app] });
    }
    return resultForModel(call.callId, result);
  } catch (e) {
    if (signal.aborted || (e instanceof HostError && e.kind === 'cancelled')) {
      stream.markdown(`\n\n_${vscode.l10n.t('{0} was cancelled.', escapeMarkdown(tool.tool))}_`);
      return undefined;
    }
    const why = notificationText(errorMessage(e), 600);
    stream.markdown(
      `**${vscode.l10n.t('{0} failed', escapeMarkdown(tool.tool))}** (${escapeMarkdown(tool.server)}): ${escapeMarkdown(why)}\n\n`,
    );
    return errorForModel(call, why);
  }
}

/**
 * Run `read_skill` / `read_skill_file` (the loader asks the person first, and verifies what it reads).
 * @returns the result for the model, or `undefined` when the chat was stopped
 */
async function runSkillTool(
  skills: SkillOffer,
  call: vscode.LanguageModelToolCallPart,
  stream: vscode.ChatResponseStream,
  signal: AbortSignal,
): Promise<vscode.LanguageModelToolResultPart | undefined> {
  try {
    const r = await skills.run(call.name, call.input, signal);
    stream.markdown(`_${escapeMarkdown(r.shown)}_\n\n`);
    return new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(r.forModel)]);
  } catch (e) {
    if (signal.aborted) return undefined;
    const why = notificationText(errorMessage(e), 600);
    stream.markdown(`**${vscode.l10n.t('{0} failed', escapeMarkdown(call.name))}**: ${escapeMarkdown(why)}\n\n`);
    return errorForModel(call, why);
  }
}

function errorForModel(call: vscode.LanguageModelToolCallPart, why: string): vscode.LanguageModelToolResultPart {
  return new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(`The tool call failed: ${why}`)]);
}

/** The tools of every server in chat, named for the model; a server that cannot list them is said in the chat and left out. */
async function offeredTools(deps: ParticipantDeps, stream: vscode.ChatResponseStream): Promise<OfferedTool[]> {
  const listed: { entry: ServerEntry; tool: Record<string, unknown> }[] = [];
  for (const entry of deps.exposure.exposed()) {
    try {
      const tools = callableTools((await (await deps.registry.connection(entry)).list('tools')) as Record<string, unknown>[]);
      for (const tool of tools) if (typeof tool.name === 'string') listed.push({ entry, tool });
    } catch (e) {
      stream.markdown(
        `_${vscode.l10n.t('{0} left out: {1}', escapeMarkdown(entry.name), escapeMarkdown(notificationText(errorMessage(e), 300)))}_\n\n`,
      );
    } finally {
      deps.registry.touch();
    }
  }
  const names = modelToolNames(listed.map(({ entry, tool }) => ({ server: entry.name, tool: String(tool.name) })));
  return names.map((n, i) => {
    const { tool, entry } = listed[i];
    const description = typeof tool.description === 'string' ? tool.description : typeof tool.title === 'string' ? tool.title : n.tool;
    const inputSchema = isPlainObject(tool.inputSchema) ? tool.inputSchema : { type: 'object', properties: {} };
    const readOnly = isPlainObject(tool.annotations) && tool.annotations.readOnlyHint === true;
    // l10n-exempt: read by the model, not shown to people.
    const definition = { name: n.name, description: `${description} (MCP server ${entry.name})`, inputSchema };
    return { ...n, entry, readOnly, definition, hasApp: appResourceUri(tool) !== undefined };
  });
}

/** The earlier turns with this participant, as text messages for the model. */
function historyMessages(context: vscode.ChatContext): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn) out.push(vscode.LanguageModelChatMessage.User(turn.prompt));
    else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response.map((p) => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : '')).join('');
      if (text) out.push(vscode.LanguageModelChatMessage.Assistant(text));
    }
  }
  return out;
}

// Parts arrive as the extension host's own classes; checked by shape so a provider in another
// extension (or a test double) is read the same way.
function isToolCall(p: unknown): p is vscode.LanguageModelToolCallPart {
  return isPlainObjectLike(p) && typeof p.callId === 'string' && typeof p.name === 'string' && 'input' in p;
}
function isText(p: unknown): p is vscode.LanguageModelTextPart {
  return isPlainObjectLike(p) && typeof p.value === 'string' && !('callId' in p);
}
function isPlainObjectLike(p: unknown): p is Record<string, unknown> {
  return typeof p === 'object' && p !== null;
}

/** A name or message as literal Markdown text. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');
}
