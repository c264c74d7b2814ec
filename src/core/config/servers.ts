/**
 * Server definitions as VS Code users already keep them (`.vscode/mcp.json`, the profile's
 * `mcp.json`, the `mcpRoundtrip.servers` setting) → {@link ServerSpec}s, with VS Code's variables:
 * `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and `${input:id}`.
 *
 * Format (VS Code's): `{"servers": {name: {type: "stdio"|"http", command, args, env, envFile, cwd,
 * url, headers}}, "inputs": [{id, type: "promptString", description, password}]}`; JSON with comments.
 */
import { parse as parseDotenv } from 'dotenv';
import type { EraSetting, ServerSpec } from '../connection/serverSpec';
import { parseConfigJsonc } from '../util/jsonc';
import { isPlainObject } from '../util/json';
import { parseOAuthSettings, type OAuthSettings } from '../oauth/oauthSettings';

/** One server entry as written in a file or setting (before variable substitution). */
export interface ServerDefinition {
  name: string;
  type?: 'stdio' | 'http' | 'sse';
  command?: string;
  args?: string[];
  env?: Record<string, string | number | null>;
  envFile?: string;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  era?: EraSetting;
  /** `"oauth": {clientId, clientSecret?, grant?, …}` (a pre-registered client, a grant without a person) or `false` (never sign in). */
  oauth?: OAuthSettings | false;
  /** Where it came from (for messages and trust decisions). */
  source: ServerSource;
}

/** Where a definition came from. Workspace sources are held back in an untrusted workspace. */
export interface ServerSource {
  kind: 'demo' | 'settings' | 'userFile' | 'workspaceFile' | 'workspaceSettings';
  /** File path (mcp.json) or setting id. */
  location: string;
  /** The workspace folder a workspace file belongs to (for `${workspaceFolder}`). */
  workspaceFolder?: string;
}

/** An `inputs` entry: a value asked of the person once (VS Code `promptString`). */
export interface InputDefinition {
  id: string;
  type: string;
  description?: string;
  password?: boolean;
  default?: string;
}

/** The result of reading one file: definitions, inputs, and problems (never throws). */
export interface ParsedServerFile {
  servers: ServerDefinition[];
  inputs: InputDefinition[];
  /** Human messages naming the file and what is wrong; the other entries still load. */
  errors: string[];
}

/**
 * Parse an `mcp.json` text (JSON with comments and trailing commas).
 * @param text file contents
 * @param source where it came from; `location` names the file in messages
 */
export function parseServerFile(text: string, source: ServerSource): ParsedServerFile {
  const parsed = parseConfigJsonc(text, source.location);
  if (!parsed.ok) return { servers: [], inputs: [], errors: [parsed.error] };
  const doc = parsed.value;
  if (!isPlainObject(doc)) return { servers: [], inputs: [], errors: [`${source.location}: expected a JSON object with "servers"`] };
  const out = readServers(doc.servers, source);
  const inputs: InputDefinition[] = [];
  if (doc.inputs !== undefined) {
    if (!Array.isArray(doc.inputs)) out.errors.push(`${source.location}: "inputs" must be an array`);
    else
      for (const [i, inp] of doc.inputs.entries()) {
        if (!isPlainObject(inp) || typeof inp.id !== 'string') out.errors.push(`${source.location}: inputs[${i}] needs an "id"`);
        else
          inputs.push({
            id: inp.id,
            type: String(inp.type ?? 'promptString'),
            description: typeof inp.description === 'string' ? inp.description : undefined,
            password: inp.password === true,
            default: typeof inp.default === 'string' ? inp.default : undefined,
          });
      }
  }
  return { servers: out.servers, inputs, errors: out.errors };
}

/**
 * Read a `{name: definition}` map (the `servers` member of a file, or the settings value).
 * Invalid entries are reported and skipped; valid ones load.
 */
export function readServers(map: unknown, source: ServerSource): { servers: ServerDefinition[]; errors: string[] } {
  const servers: ServerDefinition[] = [];
  const errors: string[] = [];
  if (map === undefined) return { servers, errors };
  if (!isPlainObject(map)) return { servers, errors: [`${source.location}: "servers" must be an object keyed by server name`] };
  for (const [name, raw] of Object.entries(map)) {
    const where = `${source.location}: server "${name}"`;
    if (!isPlainObject(raw)) {
      errors.push(`${where} must be an object`);
      continue;
    }
    const type = (raw.type ?? (raw.url !== undefined ? 'http' : 'stdio')) as string;
    if (type !== 'stdio' && type !== 'http' && type !== 'sse') {
      errors.push(`${where}: unknown type "${type}" (expected stdio or http)`);
      continue;
    }
    if (type === 'stdio' && typeof raw.command !== 'string') {
      errors.push(`${where}: a stdio server needs a "command"`);
      continue;
    }
    if (type !== 'stdio' && typeof raw.url !== 'string') {
      errors.push(`${where}: an http server needs a "url"`);
      continue;
    }
    if (raw.args !== undefined && !(Array.isArray(raw.args) && raw.args.every((a) => typeof a === 'string'))) {
      errors.push(`${where}: "args" must be an array of strings`);
      continue;
    }
    const era = raw.era as EraSetting | undefined;
    if (era !== undefined && !['auto', 'modern', 'legacy'].includes(era)) {
      errors.push(`${where}: "era" must be auto, modern or legacy`);
      continue;
    }
    let oauth: OAuthSettings | false | undefined;
    try {
      oauth = parseOAuthSettings(raw.oauth, where);
    } catch (e) {
      errors.push((e as Error).message);
      continue;
    }
    servers.push({
      name,
      type,
      command: raw.command as string | undefined,
      args: raw.args,
      env: isPlainObject(raw.env) ? (raw.env as ServerDefinition['env']) : undefined,
      envFile: typeof raw.envFile === 'string' ? raw.envFile : undefined,
      cwd: typeof raw.cwd === 'string' ? raw.cwd : undefined,
      url: raw.url as string | undefined,
      headers: isPlainObject(raw.headers) ? (raw.headers as Record<string, string>) : undefined,
      era,
      ...(oauth !== undefined ? { oauth } : {}),
      source,
    });
  }
  return { servers, errors };
}

/** What variable substitution can see. */
export interface VariableContext {
  workspaceFolder?: string;
  userHome: string;
  env: Record<string, string | undefined>;
  /** Resolve `${input:id}` (asks the person once; password inputs from secret storage). */
  resolveInput: (id: string) => Promise<string>;
  /** Read an envFile (absolute path after substitution). */
  readFile: (path: string) => Promise<string>;
}

const VAR = /\$\{([^}]+)\}/g;

/**
 * Replace `${...}` variables in one string.
 * @throws Error naming an unknown variable, or `${workspaceFolder}` outside a workspace
 */
export async function substitute(value: string, ctx: VariableContext): Promise<string> {
  const names = [...value.matchAll(VAR)].map((m) => m[1]);
  const values = new Map<string, string>();
  for (const name of names) {
    if (values.has(name)) continue;
    if (name === 'workspaceFolder') {
      if (!ctx.workspaceFolder) throw new Error('${workspaceFolder} is used but no workspace folder is open');
      values.set(name, ctx.workspaceFolder);
    } else if (name === 'userHome') values.set(name, ctx.userHome);
    else if (name.startsWith('env:')) values.set(name, ctx.env[name.slice(4)] ?? '');
    else if (name.startsWith('input:')) values.set(name, await ctx.resolveInput(name.slice(6)));
    else throw new Error(`unknown variable \${${name}}`);
  }
  return value.replace(VAR, (_, name: string) => values.get(name)!);
}

/**
 * Turn a definition into a connectable spec: substitute variables everywhere, read `envFile`.
 * @throws Error naming the server and the problem (unknown variable, unreadable envFile, ...)
 */
export async function resolveServer(def: ServerDefinition, outer: VariableContext): Promise<ServerSpec> {
  // Each input is asked at most once, however many strings use it.
  const asked = new Map<string, Promise<string>>();
  const ctx: VariableContext = {
    ...outer,
    resolveInput: (id) => {
      if (!asked.has(id)) asked.set(id, outer.resolveInput(id));
      return asked.get(id)!;
    },
  };
  const sub = (v: string) => substitute(v, ctx);
  try {
    if (def.type === 'http' || def.type === 'sse') {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(def.headers ?? {})) headers[k] = await sub(String(v));
      let oauth = def.oauth;
      if (oauth) {
        const resolved: Record<string, unknown> = { ...oauth };
        // Every string member may hold a variable: a secret (`${input:…}`), a file (`${workspaceFolder}/…`).
        for (const [k, v] of Object.entries(resolved)) if (typeof v === 'string' && k !== 'grant') resolved[k] = await sub(v);
        oauth = resolved;
      }
      return {
        transport: 'http',
        name: def.name,
        url: await sub(def.url!),
        headers,
        era: def.era,
        ...(oauth !== undefined ? { oauth } : {}),
      };
    }
    const env: Record<string, string> = {};
    if (def.envFile) Object.assign(env, parseDotenv(await ctx.readFile(await sub(def.envFile))));
    for (const [k, v] of Object.entries(def.env ?? {})) if (v !== null) env[k] = await sub(String(v));
    const args: string[] = [];
    for (const a of def.args ?? []) args.push(await sub(a));
    return {
      transport: 'stdio',
      name: def.name,
      command: await sub(def.command!),
      args,
      env,
      cwd: def.cwd ? await sub(def.cwd) : ctx.workspaceFolder,
      era: def.era,
    };
  } catch (e) {
    throw new Error(`server "${def.name}" (${def.source.location}): ${(e as Error).message}`);
  }
}
