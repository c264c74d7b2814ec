#!/usr/bin/env node
/**
 * The client under test for the official MCP conformance suite (`@modelcontextprotocol/conformance`):
 *
 *     MCP_CONFORMANCE_SCENARIO=<scenario> [MCP_CONFORMANCE_PROTOCOL_VERSION=<rev>] node dist/conformance-client.js <server-url>
 *
 * It drives the host's own code paths (ServerConnection + callWithRoundTrips, the form model that fills
 * an elicitation the way the round panel does), not a separate SDK client, and does what each scenario
 * expects of a client: list, call, read, get. Where a person would answer a form, a scripted person
 * accepts the form as it opens (schema defaults pre-filled) with a few scripted values typed in, the way
 * the suite's own example clients answer. `MCP_CONFORMANCE_CONTEXT` (JSON) may name the tool calls to make.
 *
 * Exit code 0 when the scenario's client side ran to the end, 1 otherwise (the reason on stderr).
 * The round-trip log goes to stderr, one line per leg, like the CLI's.
 */
import { ServerConnection } from '../core/connection/serverConnection';
import { MODERN_PROTOCOL_VERSION } from '../core/connection/handshake';
import { errorMessage } from '../core/util/errors';
import type { HostEvent } from '../core/log/events';
import { buildElicitResult, checkFormContent } from '../core/elicitation/formCheck';
import { buildFormModel } from '../core/elicitation/formFields';
import type { RawFormValues } from '../core/elicitation/formModel';
import type { InputProvider } from '../core/inputs/inputProvider';
import { rootsFromPaths } from '../core/config/roots';
import { callWithRoundTrips } from '../core/mrtr/driver';
import { prepareToolSchema } from '../core/arguments/toolSchema';
import type { EraSetting } from '../core/connection/serverSpec';
import { formatEvent } from '../core/log/traceLog';
import { isPlainObject } from '../core/util/json';
import { MemoryOAuthStore } from '../core/oauth/oauthStore';
import { headlessDriver } from '../core/oauth/headlessDriver';
import type { OAuthHost } from '../core/oauth/serverOAuth';
import { SkillRegistry } from '../core/skills/skillRegistry';
import { SkillLoader } from '../core/skills/skillLoader';
import { checkGrant, type OAuthSettings } from '../core/oauth/oauthSettings';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Everything one run knows: which scenario, which revision, where the server is, and its context. */
export interface ConformanceRun {
  scenario: string;
  /** `MCP_CONFORMANCE_PROTOCOL_VERSION`, when the runner gave one. */
  protocolVersion?: string;
  serverUrl: string;
  /** `MCP_CONFORMANCE_CONTEXT`, parsed (scenario-specific data such as the tool calls to make). */
  context: Record<string, unknown>;
  log: (line: string) => void;
}

/** A tool call the scenario asks for (context `toolCalls`) or that the adapter scripts. */
interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * The era to speak for a protocol revision: 2025 revisions (and earlier) use the `initialize`
 * handshake, 2026-07-28 and later the stateless envelope. No revision given: negotiate (`auto`).
 */
export function eraFor(protocolVersion: string | undefined): EraSetting {
  if (!protocolVersion) return 'auto';
  return protocolVersion >= MODERN_PROTOCOL_VERSION ? 'modern' : 'legacy';
}

/**
 * A scripted person: accepts every form elicitation as the form opens (the host's form model pre-fills
 * schema defaults) with `typed` values entered for the fields they name, answers roots with the
 * current directory, and declares only what it answers (form elicitation, roots).
 * @param typed values typed into fields, by field key (fields a form lacks are ignored)
 */
export function scriptedPerson(typed: RawFormValues): InputProvider {
  return {
    capabilities: { elicitation: { form: {} }, roots: {} },
    async elicit(params) {
      const model = buildFormModel((params as { requestedSchema?: unknown }).requestedSchema);
      const raw: Record<string, RawFormValues[string]> = {};
      for (const f of model.fields) raw[f.key] = Object.prototype.hasOwnProperty.call(typed, f.key) ? typed[f.key] : f.initial;
      const outcome = buildElicitResult(model, 'accept', raw);
      if (!outcome.ok) throw new Error(`the scripted answer does not fit the form: ${JSON.stringify(outcome.errors)}`);
      return outcome.result;
    },
    sample: () => Promise.reject(new Error('sampling is not declared by the conformance client')),
    listRoots: async () => rootsFromPaths([process.cwd()]),
  };
}

/** Arguments this adapter types for the suite's tools when the scenario's context names none. */
const SCRIPTED_ARGUMENTS: Record<string, Record<string, unknown>> = {
  add_numbers: { a: 2, b: 3 },
  valid_tool: { region: 'us-west1' },
};

/** Values the scripted person types into elicitation forms (the suite's examples confirm with `true`). */
const SCRIPTED_FORM_VALUES: RawFormValues = { confirmed: true };

/** The tool calls a scenario's context asks for (`toolCalls: [{name, arguments}]`), if any. */
export function contextToolCalls(context: Record<string, unknown>): ToolCall[] | undefined {
  const calls = context.toolCalls;
  if (!Array.isArray(calls)) return undefined;
  return calls
    .filter(
      (c): c is { name: string; arguments?: unknown } => !!c && typeof c === 'object' && typeof (c as { name?: unknown }).name === 'string',
    )
    .map((c) => ({
      name: c.name,
      arguments: c.arguments && typeof c.arguments === 'object' ? (c.arguments as Record<string, unknown>) : {},
    }));
}

type Handler = (conn: ServerConnection, run: ConformanceRun) => Promise<void>;

async function callTool(
  conn: ServerConnection,
  call: ToolCall,
  run: ConformanceRun,
  provider?: InputProvider,
): Promise<Record<string, unknown>> {
  const r = await callWithRoundTrips(
    conn,
    'tools/call',
    { name: call.name, arguments: call.arguments },
    { provider, onEvent: logEvents(run), statePacingMs: 50 },
  );
  return r.result;
}

/** Lists the tools (as the host shows them) and calls each one the host kept, with scripted arguments. */
async function callEveryTool(conn: ServerConnection, run: ConformanceRun): Promise<void> {
  const tools = (await conn.list('tools')) as { name: string }[];
  run.log(`tools: ${tools.map((t) => t.name).join(', ') || '(none)'}`);
  const fromContext = new Map((contextToolCalls(run.context) ?? []).map((c) => [c.name, c.arguments]));
  for (const t of tools)
    await callTool(conn, { name: t.name, arguments: fromContext.get(t.name) ?? SCRIPTED_ARGUMENTS[t.name] ?? {} }, run);
}

/** Lists and uses every kind of primitive: tools (called), resources (read), prompts (got). */
async function useEverything(conn: ServerConnection, run: ConformanceRun): Promise<void> {
  await callEveryTool(conn, run);
  const caps = conn.serverCapabilities ?? {};
  if (caps.resources) {
    for (const r of (await conn.list('resources')) as { uri: string }[]) {
      await callWithRoundTrips(conn, 'resources/read', { uri: r.uri }, { onEvent: logEvents(run) });
    }
  }
  if (caps.prompts) {
    for (const p of (await conn.list('prompts')) as { name: string }[]) {
      await callWithRoundTrips(conn, 'prompts/get', { name: p.name, arguments: {} }, { onEvent: logEvents(run) });
    }
  }
}

/**
 * SEP-2322 (MRTR): while the first call waits for its answer, the person starts an unrelated call on
 * the same connection (its legs must carry nothing of the first call's round), then answers.
 */
async function mrtrRequestState(conn: ServerConnection, run: ConformanceRun): Promise<void> {
  await conn.list('tools');
  const base = scriptedPerson(SCRIPTED_FORM_VALUES);
  let unrelatedDone = false;
  const busyPerson: InputProvider = {
    ...base,
    async elicit(params, ctx) {
      if (!unrelatedDone) {
        unrelatedDone = true;
        await callTool(conn, { name: 'test_mrtr_unrelated', arguments: {} }, run, base);
      }
      return base.elicit(params, ctx);
    },
  };
  await callTool(conn, { name: 'test_mrtr_echo_state', arguments: {} }, run, busyPerson);
  if (!unrelatedDone) throw new Error('test_mrtr_echo_state never asked for input');
  await callTool(conn, { name: 'test_mrtr_no_state', arguments: {} }, run, base);
  await callTool(conn, { name: 'test_mrtr_no_result_type', arguments: {} }, run, base);
}

/** SEP-2243: the calls the scenario names in its context, with the arguments it gives. */
async function contextCalls(conn: ServerConnection, run: ConformanceRun): Promise<void> {
  const calls = contextToolCalls(run.context);
  if (!calls?.length) throw new Error('the scenario context names no toolCalls');
  await conn.list('tools');
  for (const c of calls) await callTool(conn, c, run);
}

/**
 * SEP-2106: list the tools and build each argument form the way the host does before a call. The
 * host resolves `$ref` only inside the schema and never fetches one from the network.
 */
async function prepareArgumentForms(conn: ServerConnection, run: ConformanceRun): Promise<void> {
  for (const t of (await conn.list('tools')) as { name: string; inputSchema?: unknown }[]) {
    const prepared = prepareToolSchema(t.inputSchema);
    run.log(`argument form for ${t.name}: ${prepared.ok ? 'ready' : `refused (${prepared.error})`}`);
  }
}

/**
 * SEP-2106 (JSON Schema 2020-12): echo the schema of `json_schema_2020_12_tool` as the host holds it
 * (listed, never rewritten) through `json_schema_echo`; the suite diffs it against what it served.
 */
async function echoToolSchema(conn: ServerConnection, run: ConformanceRun): Promise<void> {
  const tools = (await conn.list('tools')) as { name: string; inputSchema?: unknown }[];
  const tool = tools.find((t) => t.name === 'json_schema_2020_12_tool');
  if (!tool) throw new Error(`the server lists no json_schema_2020_12_tool (it lists: ${tools.map((t) => t.name).join(', ')})`);
  await callTool(conn, { name: 'json_schema_echo', arguments: { schema: tool.inputSchema } }, run);
}

/** SEP-2640 `no-prefetch`: list the skills, as the host does on connect, and read no file. */
async function listSkills(conn: ServerConnection, run: ConformanceRun): Promise<void> {
  const listing = await new SkillRegistry().list(conn);
  run.log(`skills: ${listing.skills.map((s) => s.uri).join(', ') || '(none)'}`);
}

/**
 * SEP-2640 `verify-*`: list, load the first skill through the host's loader (the scripted person
 * approves it), then read its other files only if it loaded. A refused skill fails the run.
 */
async function loadFirstSkill(conn: ServerConnection, run: ConformanceRun): Promise<void> {
  const registry = new SkillRegistry();
  const loader = new SkillLoader(registry, async () => ({ load: true }));
  const [first] = (await registry.list(conn)).skills;
  if (!first) throw new Error('the server lists no skill');
  const loaded = await loader.load(conn, first.uri);
  run.log(`loaded ${first.uri} (${loaded.verified ? 'verified' : 'dynamic'})`);
  if (first.files === 'dynamic') return;
  for (const f of first.files) if (f.uri !== first.uri) await loader.readFile(conn, first.uri, f.uri);
}

/** The client ID metadata document URL the suite's `auth/basic-cimd` expects as the client id. */
export const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** The environment variable the `auth/wif-jwt-bearer` workload token is handed over in (as a CI job would). */
export const WORKLOAD_TOKEN_ENV = 'MCP_ROUNDTRIP_CONFORMANCE_WORKLOAD_TOKEN';

/** A 0600 file in a fresh private folder holding `text`, for settings that take a file (a key, an ID token). */
function credentialFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-roundtrip-conformance-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, name);
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

/**
 * The `oauth` settings of the extension scenarios (sign-ins without a person), from the scenario's
 * context the way a person would configure them: secrets as values, keys and ID tokens in files, a
 * workload's token in an environment variable. Other scenarios: the context's pre-registered client.
 */
export function conformanceSettings(
  scenario: string,
  context: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): OAuthSettings {
  const str = (k: string) => (typeof context[k] === 'string' ? context[k] : undefined);
  const settings: OAuthSettings = {};
  if (str('client_id')) settings.clientId = str('client_id');
  switch (scenario) {
    case 'auth/client-credentials-basic':
      return { grant: 'client_credentials', clientId: settings.clientId, clientSecret: str('client_secret') };
    case 'auth/client-credentials-jwt':
      return {
        grant: 'client_credentials',
        clientId: settings.clientId,
        privateKeyFile: credentialFile('client-key.pem', str('private_key_pem') ?? ''),
        ...(str('signing_algorithm') ? { signingAlgorithm: str('signing_algorithm') } : {}),
      };
    case 'auth/wif-jwt-bearer':
      env[WORKLOAD_TOKEN_ENV] = str('valid_jwt') ?? '';
      return { grant: 'jwt_bearer', clientId: settings.clientId, assertionEnv: WORKLOAD_TOKEN_ENV };
    case 'auth/enterprise-managed-authorization':
      return {
        grant: 'enterprise',
        clientId: settings.clientId,
        clientSecret: str('client_secret'),
        idpIssuer: str('idp_issuer'),
        idpClientId: str('idp_client_id'),
        idTokenFile: credentialFile('id-token.jwt', str('idp_id_token') ?? ''),
      };
  }
  if (str('client_secret') && settings.clientId) settings.clientSecret = str('client_secret');
  return settings;
}

/**
 * The sign-in of an `auth/*` scenario: the product's OAuth with a memory store, a headless browser
 * stand-in that follows the authorization redirect into the real loopback listener (any free port:
 * runs go in parallel), the suite's client ID metadata document, and the settings
 * {@link conformanceSettings} makes of the context.
 */
export function conformanceOAuth(context: Record<string, unknown>, scenario = ''): { host: OAuthHost; settings: OAuthSettings } {
  const settings = conformanceSettings(scenario, context);
  checkGrant(settings, `the ${scenario || 'scenario'}'s context`);
  return {
    host: {
      store: new MemoryOAuthStore(),
      driver: headlessDriver(),
      clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
      callbackPort: 0,
      signInTimeoutMs: 20_000,
    },
    settings,
  };
}

/** Scenario name → what the client does. Names are the suite's. */
export const SCENARIOS: Readonly<Record<string, Handler>> = {
  initialize: async (conn) => void (await conn.list('tools')),
  tools_call: callEveryTool,
  'request-metadata': callEveryTool,
  'sep-2322-client-request-state': mrtrRequestState,
  'http-standard-headers': useEverything,
  'http-custom-headers': contextCalls,
  'http-invalid-tool-headers': callEveryTool,
  'json-schema-ref-no-deref': prepareArgumentForms,
  'elicitation-sep1034-client-defaults': callEveryTool,
  'sse-retry': callEveryTool,
  'json-schema-2020-12-preservation': echoToolSchema,
  'sep-2640-client-no-prefetch': listSkills,
  'sep-2640-client-verify-digest': loadFirstSkill,
  'sep-2640-client-verify-size': loadFirstSkill,
  'sep-2640-client-verify-frontmatter': loadFirstSkill,
};

/** What the client does in an `auth/*` scenario: what a person does, list the tools and call them. */
export const AUTH_SCENARIO: Handler = callEveryTool;

function logEvents(run: ConformanceRun) {
  return (e: HostEvent) => {
    const line = formatEvent(e);
    if (line) run.log(line.text);
  };
}

/**
 * Run one scenario against `run.serverUrl`.
 * @throws Error for an unknown scenario; HostError for anything the host refused or the server failed
 */
export async function runScenario(run: ConformanceRun): Promise<void> {
  const isAuth = run.scenario.startsWith('auth/');
  const handler = isAuth ? AUTH_SCENARIO : SCENARIOS[run.scenario];
  if (!handler) throw new Error(`unknown scenario "${run.scenario}" (known: ${Object.keys(SCENARIOS).join(', ')}, auth/*)`);
  const oauth = isAuth ? conformanceOAuth(run.context, run.scenario) : undefined;
  const conn = new ServerConnection(
    {
      transport: 'http',
      name: 'conformance',
      url: run.serverUrl,
      era: eraFor(run.protocolVersion),
      ...(oauth ? { oauth: oauth.settings } : {}),
    },
    {
      provider: scriptedPerson(SCRIPTED_FORM_VALUES),
      clientInfo: { name: 'mcp-roundtrip-conformance', version: '0.1.0' },
      onEvent: logEvents(run),
      checkFormContent,
      ...(oauth ? { oauth: oauth.host } : {}),
    },
  );
  try {
    await handler(conn, run);
  } finally {
    await conn.close();
  }
}

function parseContext(raw: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  const v = JSON.parse(raw) as unknown;
  return isPlainObject(v) ? v : {};
}

if (require.main === module) {
  const serverUrl = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (!scenario || !serverUrl || process.argv.length < 3) {
    log('usage: MCP_CONFORMANCE_SCENARIO=<scenario> conformance-client <server-url>');
    process.exit(2);
  }
  const run: ConformanceRun = {
    scenario,
    protocolVersion: process.env.MCP_CONFORMANCE_PROTOCOL_VERSION || undefined,
    serverUrl,
    context: parseContext(process.env.MCP_CONFORMANCE_CONTEXT),
    log,
  };
  runScenario(run).then(
    () => process.exit(0),
    (e) => {
      log(`conformance-client: ${scenario}: ${errorMessage(e)}`);
      process.exit(1);
    },
  );
}
