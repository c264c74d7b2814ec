// Test harness for the demo server: build once, spawn it (stdio or --http 0), connect SDK clients
// with scripted host answers, and send raw MRTR legs in manual mode.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  Client,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  type InputRequiredResult,
  type JSONRPCMessage,
  type ListRootsResult,
  type Transport,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** Repository root (this file lives in test/support). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Where `node scripts/build.mjs` puts the demo bundle. */
export const DIST_BUNDLE = path.join(REPO_ROOT, 'dist', 'demo-server.js');
/** Everything a host may declare; each test narrows it when it needs to. */
export const ALL_CAPABILITIES: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

let bundle: Promise<string> | undefined;

/**
 * Builds the demo once per test process and resolves with the bundle to spawn.
 *
 * First choice is the project build (`node scripts/build.mjs` -> dist/demo-server.js), so the real
 * bundle is tested. That script builds every entry point, so while another part of the project
 * does not compile it fails for reasons unrelated to the demo; then the demo entry alone is bundled
 * with the same esbuild settings into a temp directory, and a note says so on stderr.
 */
export function ensureDemoBuilt(): Promise<string> {
  bundle ??= new Promise<string>((resolve, reject) => {
    execFile(process.execPath, ['scripts/build.mjs'], { cwd: REPO_ROOT }, (error, _stdout, stderr) => {
      if (!error && existsSync(DIST_BUNDLE)) return resolve(DIST_BUNDLE);
      const reason =
        (stderr || error?.message || 'no bundle produced').split('\n').find((line) => line.includes('ERROR')) ?? 'no bundle produced';
      process.stderr.write(`[demo tests] node scripts/build.mjs failed (${reason.trim()}); bundling src/demo/main.ts alone instead\n`);
      buildDemoOnly().then(resolve, reject);
    });
  });
  return bundle;
}

/** Bundles src/demo/main.ts alone, with the options scripts/build.mjs uses for node entries. */
async function buildDemoOnly(): Promise<string> {
  const esbuild = await import('esbuild');
  const outdir = mkdtempSync(path.join(tmpdir(), 'mcp-roundtrip-demo-'));
  process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
  await esbuild.build({
    entryPoints: [{ in: path.join(REPO_ROOT, 'src/demo/main.ts'), out: 'demo-server' }],
    outdir,
    bundle: true,
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    mainFields: ['module', 'main'],
  });
  return path.join(outdir, 'demo-server.js');
}

/** One request the scripted host answered: method, the `inputRequests` key (modern) or JSON-RPC id (2025), params. */
export interface SeenRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  id: string | number;
  params: unknown;
}

/** The answers a test scripts; an unscripted request fails the test loudly. */
export interface HostScript {
  elicit?: (params: ElicitRequestParams) => ElicitResult | Promise<ElicitResult>;
  sample?: (params: CreateMessageRequestParams) => CreateMessageResult | Promise<CreateMessageResult>;
  roots?: () => ListRootsResult | Promise<ListRootsResult>;
}

/** A scripted stand-in for a person and a model: answers what the server asks and records it. */
export class ScriptedHost {
  readonly seen: SeenRequest[] = [];
  script: HostScript = {};

  /** Registers handlers for the capabilities `caps` declares (the SDK refuses others). */
  install(client: Client, caps: ClientCapabilities): void {
    if (caps.elicitation) {
      client.setRequestHandler('elicitation/create', async (request, ctx) => {
        this.seen.push({ method: 'elicitation/create', id: ctx.mcpReq.id, params: request.params });
        if (!this.script.elicit) throw new Error('unscripted elicitation/create');
        return this.script.elicit(request.params);
      });
    }
    if (caps.sampling) {
      client.setRequestHandler('sampling/createMessage', async (request, ctx) => {
        this.seen.push({ method: 'sampling/createMessage', id: ctx.mcpReq.id, params: request.params });
        if (!this.script.sample) throw new Error('unscripted sampling/createMessage');
        return this.script.sample(request.params);
      });
    }
    if (caps.roots) {
      client.setRequestHandler('roots/list', async (request, ctx) => {
        this.seen.push({ method: 'roots/list', id: ctx.mcpReq.id, params: request.params });
        if (!this.script.roots) throw new Error('unscripted roots/list');
        return this.script.roots();
      });
    }
  }

  /** Forgets what was seen and the script (between tests sharing one connection). */
  reset(script: HostScript = {}): void {
    this.seen.length = 0;
    this.script = script;
  }
}

/** Which era a client negotiates: `modern` pins 2026-07-28, `legacy` is the SDK default 2025 handshake. */
export type Era = 'modern' | 'legacy';

/** Where the server is: a fresh stdio child, or an HTTP URL. */
export type Where = { kind: 'stdio'; env?: Record<string, string> } | { kind: 'http'; url: string };

/** Options of {@link connectDemo}. */
export interface ConnectOptions {
  era: Era;
  where: Where;
  capabilities?: ClientCapabilities;
  /** `false` = manual MRTR mode: use {@link sendLeg}. Default `true` (the SDK answers rounds). */
  autoFulfill?: boolean;
}

/** A connected client, its scripted host and the child's stderr (for failure messages). */
export interface DemoConnection {
  readonly client: Client;
  readonly host: ScriptedHost;
  readonly era: Era;
  /** Every message received from the server, as it came off the wire (newest last). */
  readonly inbound: JSONRPCMessage[];
  stderr(): string;
  close(): Promise<void>;
}

/** Connects an SDK client to the demo server (spawning `node dist/demo-server.js` for stdio). */
export async function connectDemo(options: ConnectOptions): Promise<DemoConnection> {
  const capabilities = options.capabilities ?? ALL_CAPABILITIES;
  const client = new Client(
    { name: 'demo-test-host', version: '1.0.0' },
    {
      capabilities,
      versionNegotiation: options.era === 'modern' ? { mode: { pin: '2026-07-28' } } : undefined,
      inputRequired: { autoFulfill: options.autoFulfill ?? true },
    },
  );
  const host = new ScriptedHost();
  host.install(client, capabilities);

  let stderr = '';
  const inbound: JSONRPCMessage[] = [];
  // A handler set before connect() is chained by the SDK and called first: a tap on the raw wire.
  const tap = (transport: Transport) => {
    transport.onmessage = (message: JSONRPCMessage) => void inbound.push(message);
    return transport;
  };
  if (options.where.kind === 'stdio') {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [await ensureDemoBuilt()],
      env: { ...getDefaultEnvironment(), ...options.where.env },
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(tap(transport));
  } else {
    await client.connect(tap(new StreamableHTTPClientTransport(new URL(options.where.url))));
  }
  if (client.getProtocolEra() !== options.era) throw new Error(`expected era ${options.era}, got ${client.getProtocolEra()}`);
  return { client, host, era: options.era, inbound, stderr: () => stderr, close: () => client.close() };
}

/** A demo server child serving HTTP. */
export interface HttpDemo {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** Spawns `node dist/demo-server.js --http 0` and waits for the URL it prints on stderr. */
export async function startHttpDemo(env: Record<string, string> = {}): Promise<HttpDemo> {
  const child = spawn(process.execPath, [await ensureDemoBuilt(), '--http', '0'], {
    cwd: REPO_ROOT,
    env: { ...getDefaultEnvironment(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise<HttpDemo>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`demo server exited (${code}) before listening: ${stderr}`));
    child.once('exit', onExit);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/.exec(stderr);
      if (match) {
        child.off('exit', onExit);
        resolve({ url: match[1], port: Number(match[2]), child, stderr: () => stderr, stop });
      }
    });
  });
}

/** Runs the bundle with `args` until it exits (for start-up errors); resolves with exit code and stderr. */
export async function runDemoToExit(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [await ensureDemoBuilt(), ...args], {
    cwd: REPO_ROOT,
    env: { ...getDefaultEnvironment(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

/** Params of one MRTR leg sent by hand. */
export interface LegParams {
  name?: string;
  uri?: string;
  arguments?: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/** A complete result or an `input_required` one, as the manual path returns it. */
export type LegResult = Record<string, unknown> & Partial<InputRequiredResult>;

/**
 * Sends one leg by hand (manual MRTR mode): `method` with `params` as given (the SDK adds the
 * `_meta` envelope and a new id) and returns the raw result, `input_required` included.
 */
export async function sendLeg(
  client: Client,
  method: 'tools/call' | 'prompts/get' | 'resources/read',
  params: LegParams,
): Promise<LegResult> {
  const result: unknown = await client.request({ method, params: { ...params } }, { allowInputRequired: true });
  return result as LegResult;
}

/** Runs `fn` and returns the error it rejects with (fails if it resolves). */
export async function rejection(fn: () => Promise<unknown>): Promise<Error & { code?: unknown; data?: unknown }> {
  try {
    await fn();
  } catch (error) {
    return error as Error & { code?: unknown; data?: unknown };
  }
  throw new Error('expected a rejection, but the call succeeded');
}

/** The text of the first content block of a tool result. */
export function firstText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content;
  const block = content?.[0];
  if (block?.type !== 'text' || typeof block.text !== 'string') throw new Error(`no text block in ${JSON.stringify(result)}`);
  return block.text;
}
