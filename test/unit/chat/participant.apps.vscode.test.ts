/**
 * `@roundtrip` and MCP Apps: a result of a tool whose `_meta.ui.resourceUri` names an app gets an
 * **Open App** button in the response (its command opens the app beside the chat with the call's
 * arguments and result); a tool without an app gets none; with `mcpRoundtrip.apps.enabled` off, none
 * either. Runs `src/vscode` under the `vscode` stand-in, with a scripted model.
 */
import assert from 'node:assert/strict';
import { useVscodeStub, VSCODE_STUB } from '../../support/vscodeStub';

type Handler = (request: unknown, context: unknown, stream: unknown, token: unknown) => Promise<unknown>;

const RESULT = { content: [{ type: 'text', text: '2026-12-07T03:00:00.000Z' }], structuredContent: { time: '2026-12-07T03:00:00.000Z' } };

describe('@roundtrip: the Open App button of an app result', () => {
  useVscodeStub();
  let vscode: { chat: Record<string, unknown>; workspace: Record<string, unknown> };
  let participant: typeof import('../../../src/vscode/chat/participant');
  let appsSetting: typeof import('../../../src/vscode/apps/appsSetting');
  const saved: Record<string, unknown> = {};

  before(() => {
    vscode = require(VSCODE_STUB) as typeof vscode;
    // The language model types the participant builds messages with (the stand-in has none); set
    // before the module loads, which copies the keys there are.
    const lm = vscode as unknown as Record<string, unknown>;
    lm.LanguageModelChatMessage = { User: (content: unknown) => ({ content }), Assistant: (content: unknown) => ({ content }) };
    lm.LanguageModelTextPart = class {
      constructor(readonly value: string) {}
    };
    lm.LanguageModelToolResultPart = class {
      constructor(
        readonly callId: string,
        readonly content: unknown[],
      ) {}
    };
    participant = require('../../../src/vscode/chat/participant') as typeof participant;
    appsSetting = require('../../../src/vscode/apps/appsSetting') as typeof appsSetting;
    saved.createChatParticipant = vscode.chat.createChatParticipant;
    saved.getConfiguration = vscode.workspace.getConfiguration;
  });
  after(() => {
    vscode.chat.createChatParticipant = saved.createChatParticipant;
    vscode.workspace.getConfiguration = saved.getConfiguration;
    for (const k of ['LanguageModelChatMessage', 'LanguageModelTextPart', 'LanguageModelToolResultPart'])
      delete (vscode as unknown as Record<string, unknown>)[k];
  });

  /** The names of the tools the model was offered in the last request. */
  let offered: string[] = [];
  /**
   * Run one chat request whose model calls `tool` (the first offered) once; `alsoListed` are listed
   * after it. Returns the buttons streamed.
   */
  async function buttons(
    tool: Record<string, unknown>,
    appsOn = true,
    alsoListed: Record<string, unknown>[] = [],
  ): Promise<{ command: string; title: string; arguments?: unknown[] }[]> {
    let handler: Handler | undefined;
    vscode.chat.createChatParticipant = (_id: string, h: Handler) => ((handler = h), { dispose: () => {} });
    vscode.workspace.getConfiguration = () => ({
      get: (key: string, fallback: unknown) => (key === 'apps.enabled' ? appsOn : fallback),
      has: () => false,
      inspect: () => undefined,
      update: async () => {},
    });
    const entry = { name: 'basic' };
    participant.createParticipant({
      registry: { connection: async () => ({ list: async () => [tool, ...alsoListed] }), touch: () => {} },
      exposure: { exposed: () => [entry], pending: () => [] },
      calls: { callTool: async () => RESULT },
      imageDir: {},
      consent: { mayRun: async () => true },
    } as never);
    let turn = 0;
    const model = {
      sendRequest: async (_messages: unknown, options: { tools: { name: string }[] }) => (
        (offered = options.tools.map((t) => t.name)),
        {
          stream: (async function* () {
            if (turn++ === 0) yield { callId: 'c1', name: options.tools[0].name, input: { zone: 'UTC' } };
            else yield { value: 'Done.' };
          })(),
        }
      ),
    };
    const seen: { command: string; title: string; arguments?: unknown[] }[] = [];
    const stream = { markdown: () => {}, progress: () => {}, reference: () => {}, button: (b: (typeof seen)[number]) => seen.push(b) };
    const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => {} }) };
    const r = await handler!({ prompt: 'what time is it?', model }, { history: [] }, stream, token);
    assert.deepEqual(r, {});
    return seen;
  }

  it('a tool with an app: Open App, its command given the server, tool, arguments and result', async () => {
    const got = await buttons({
      name: 'get-time',
      inputSchema: { type: 'object' },
      _meta: { ui: { resourceUri: 'ui://get-time/mcp-app.html' } },
    });
    assert.deepEqual(got, [
      {
        command: appsSetting.OPEN_CHAT_APP_COMMAND,
        title: 'Open App',
        arguments: [{ server: 'basic', tool: 'get-time', arguments: { zone: 'UTC' }, result: RESULT }],
      },
    ]);
  });

  it('the flat ui/resourceUri key counts too; a tool without an app, or apps off: no button', async () => {
    assert.equal((await buttons({ name: 'get-time', _meta: { 'ui/resourceUri': 'ui://get-time/mcp-app.html' } })).length, 1);
    assert.deepEqual(await buttons({ name: 'echo', inputSchema: { type: 'object' } }), []);
    assert.deepEqual(await buttons({ name: 'get-time', _meta: { ui: { resourceUri: 'ui://get-time/mcp-app.html' } } }, false), []);
  });

  it('a tool only its app may call (visibility ["app"]) is not offered to the model', async () => {
    const poll = { name: 'poll-system-stats', _meta: { ui: { resourceUri: 'ui://system-monitor/mcp-app.html', visibility: ['app'] } } };
    await buttons({ name: 'get-system-info', _meta: { ui: { resourceUri: 'ui://system-monitor/mcp-app.html' } } }, true, [poll]);
    assert.equal(offered.length, 1);
    assert.match(offered[0], /get-system-info/);
  });
});
