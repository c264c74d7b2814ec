/**
 * `mcp-roundtrip run <name>`: a saved call of the workspace's `.vscode/mcp-calls.json` (the format
 * VS Code's Save Call… writes, `core/history/savedCalls.ts`), run headless. Its server is the one
 * given with `--stdio`/`--http`, else the one the call names, from the workspace's `.vscode/mcp.json`
 * (next to the calls file) or the built-in demo server (`demo`, bundled beside this CLI).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseServerFile, resolveServer } from '../core/config/servers';
import type { ServerSpec } from '../core/connection/serverSpec';
import { parseSavedCalls, SAVED_CALLS_FILE, savedCallRequest } from '../core/history/savedCalls';
import type { MrtrMethod } from '../core/inputs/inputProvider';
import { HostError } from '../core/util/errors';
import { MAX_CONFIG_FILE_BYTES } from '../core/util/jsonc';
import { cliList } from './messages';

/** What `run` resolves to: the server, the request and the saved answers. */
export interface ResolvedRun {
  server: ServerSpec;
  method: MrtrMethod;
  params: Record<string, unknown>;
  /** The saved call's scripted answers (an `--answers` file overrides them key by key). */
  answers: Record<string, unknown>;
}

/** The name the built-in demo server has in VS Code (and so in saved calls). */
export const DEMO_SERVER = 'demo';

const usage = (message: string) => new HostError('usage', message);

/** A workspace file's text, its size checked before a byte is read (a cloned repository may hold a huge one). */
function readText(file: string, what: string): string {
  try {
    const { size } = statSync(file);
    if (size > MAX_CONFIG_FILE_BYTES)
      throw usage(`${what} ${file} is ${size} bytes, larger than the limit of ${MAX_CONFIG_FILE_BYTES} bytes; not read`);
    return readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof HostError) throw e;
    throw usage(`cannot read ${what} ${file}: ${(e as Error).message}`);
  }
}

/** The built-in demo server: `demo-server.js` beside this CLI (dist/). */
function demoServer(cwd: string): ServerSpec {
  const script = join(__dirname, 'demo-server.js');
  if (!existsSync(script)) throw usage(`the built-in demo server is not next to the CLI (${script}); give it with --stdio`);
  return { transport: 'stdio', name: DEMO_SERVER, command: process.execPath, args: [script], cwd };
}

/** The server `name` of the workspace `folder` (its `.vscode/mcp.json`), variables substituted. */
async function workspaceServer(name: string, folder: string, callName: string): Promise<ServerSpec> {
  const mcpJson = join(folder, '.vscode', 'mcp.json');
  const parsed = existsSync(mcpJson)
    ? parseServerFile(readText(mcpJson, 'the server file'), { kind: 'workspaceFile', location: mcpJson, workspaceFolder: folder })
    : undefined;
  const def = parsed?.servers.find((s) => s.name === name);
  if (!def) {
    if (name === DEMO_SERVER) return demoServer(folder);
    const why = parsed
      ? `${mcpJson} defines no server "${name}"${parsed.errors.length ? ` (${parsed.errors[0]})` : ''}`
      : `there is no ${mcpJson}`;
    throw usage(`saved call "${callName}" runs on server "${name}", but ${why}; give the server with --stdio or --http`);
  }
  return resolveServer(def, {
    workspaceFolder: folder,
    userHome: homedir(),
    env: process.env,
    resolveInput: (id) =>
      Promise.reject(new Error(`it uses \${input:${id}}, which the CLI cannot ask for; give the server with --stdio or --http`)),
    readFile: async (p) => readText(p, 'the envFile'),
  }).catch((e: Error) => {
    throw usage(e.message);
  });
}

/**
 * Find the saved call `name` and what it runs on.
 * @param callsFile `--calls`, else `.vscode/mcp-calls.json` of `cwd`
 * @param server `--stdio`/`--http`, which replaces the saved call's server
 * @param args `--args`, which replace the saved arguments key by key
 * @throws HostError `usage` naming the file and what is wrong (no file, no such call, unknown server)
 */
export async function resolveSavedCall(
  name: string,
  cwd: string,
  callsFile?: string,
  server?: ServerSpec,
  args?: Record<string, unknown>,
): Promise<ResolvedRun> {
  const file = resolve(cwd, callsFile ?? SAVED_CALLS_FILE);
  if (!existsSync(file))
    throw usage(`no saved calls: ${file} does not exist (save a call in VS Code with Save Call…, or give --calls <file>)`);
  const parsed = parseSavedCalls(readText(file, 'the saved calls'), file);
  const call = parsed.calls.find((c) => c.name === name);
  if (!call) {
    const broken = parsed.errors.find((e) => e.includes(`"${name}"`)) ?? (parsed.calls.length ? undefined : parsed.errors[0]);
    if (broken) throw usage(broken);
    throw usage(
      `no saved call named "${name}" in ${file}${parsed.calls.length ? `; it has: ${cliList(parsed.calls.map((c) => c.name))}` : ''}`,
    );
  }
  if (args && call.method === 'resources/read') throw usage(`saved call "${name}" reads a resource: it takes no --args`);
  // The workspace folder of `<folder>/.vscode/mcp-calls.json`; any other file: the current directory.
  const folder = basename(dirname(file)) === '.vscode' ? dirname(dirname(file)) : cwd;
  const { method, params } = savedCallRequest({ ...call, arguments: { ...call.arguments, ...args } });
  return { server: server ?? (await workspaceServer(call.server, folder, name)), method, params, answers: call.answers ?? {} };
}
