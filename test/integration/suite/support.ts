/**
 * Helpers of the integration suite, which runs inside a real extension host (code-server or a desktop
 * VS Code started by @vscode/test-electron) next to the built MCP Roundtrip extension. Every wait is for
 * an event or a condition, with a deadline; none is a fixed sleep.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { CallOutcome, McpRoundtripApi } from '../../../src/testApi';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';

export type { CallOutcome, McpRoundtripApi, ServerEntry };

/** The extension under test. */
export const EXTENSION_ID = 'mcp-roundtrip.mcp-roundtrip';

/** Environment the runners set (run.mjs through code-server, runElectron.mjs through test-electron). */
export const ENV = {
  /** `trusted` | `untrusted`: the workspace trust the runner launched with. */
  trust: process.env.MCP_RT_INTEGRATION_TRUST,
  /** The user data dir's `logs` folder: where the round-trip log file is written. */
  logsDir: process.env.MCP_RT_INTEGRATION_LOGS,
  /** `playwright` when the runner answers quick inputs in the browser (Add Server…). */
  ui: process.env.MCP_RT_INTEGRATION_UI,
};

/** The extension's API, activated and with its first server list loaded. */
export async function roundtrip(): Promise<McpRoundtripApi> {
  const ext = vscode.extensions.getExtension<McpRoundtripApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this extension host`);
  const api = await ext.activate();
  await api.ready;
  return api;
}

/** The extension's folder (its `dist/demo-server.js` is the demo server). */
export function extensionPath(): string {
  return vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
}

/** A stdio definition of the demo server, run by the editor's own Node, in the `mcp.json` format. */
export function demoServerConfig(): Record<string, unknown> {
  return {
    type: 'stdio',
    command: process.execPath,
    args: [path.join(extensionPath(), 'dist', 'demo-server.js')],
    env: { ELECTRON_RUN_AS_NODE: '1' },
  };
}

/** The first workspace folder (the runners open one). */
export function workspaceFolder(): vscode.WorkspaceFolder {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the runner opens a workspace folder');
  return f;
}

/**
 * Resolves once `predicate(registry list)` holds: checked now and after each `onDidChange` of the
 * registry. Rejects after `timeoutMs`, saying what was awaited and what the registry held.
 */
export function registryWhere(
  api: McpRoundtripApi,
  what: string,
  predicate: (list: ServerEntry[]) => boolean,
  timeoutMs = 60_000,
): Promise<ServerEntry[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const list = api.registry.list();
      if (!predicate(list)) return false;
      done();
      resolve(list);
      return true;
    };
    const sub = api.registry.onDidChange(() => void check());
    const timer = setTimeout(() => {
      done();
      reject(
        new Error(
          `timed out after ${timeoutMs} ms waiting for the registry: ${what} (it lists ${
            api.registry
              .list()
              .map((e) => e.name)
              .join(', ') || 'nothing'
          }; problems: ${api.registry.problems.join(' | ') || 'none'})`,
        ),
      );
    }, timeoutMs);
    const done = () => {
      sub.dispose();
      clearTimeout(timer);
    };
    check();
  });
}

/**
 * Polls `check` until it returns something other than undefined/false; for state with no event
 * (a log file written asynchronously). Rejects after `timeoutMs`.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false,
  { timeoutMs = 60_000, intervalMs = 100 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** The text of every `MCP Roundtrip.log` under the logs folder the runner passed (empty when none yet). */
export function logFileText(): string {
  const files: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'MCP Roundtrip.log') files.push(p);
    }
  };
  if (ENV.logsDir) walk(ENV.logsDir);
  return files
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

/** Waits until the round-trip log file has a line matching each of `patterns`; returns those lines. */
export function waitForLogLines(patterns: RegExp[], timeoutMs = 60_000): Promise<string[]> {
  return waitFor(
    `the round-trip log file to show ${patterns.join(' and ')}`,
    () => {
      const lines = logFileText().split('\n');
      const found = patterns.map((re) => lines.find((l) => re.test(l)));
      return found.every((l) => l !== undefined) ? found : undefined;
    },
    { timeoutMs },
  );
}

/** Asserts that a call through the API succeeded and returns its result. */
export function succeeded(outcome: CallOutcome): Record<string, unknown> {
  assert.equal(outcome.error, undefined, `the call failed: ${outcome.error?.kind}: ${outcome.error?.message}`);
  assert.ok(outcome.result, 'the call has a result');
  return outcome.result;
}

/** The text blocks of a tool result, joined. */
export function resultText(result: Record<string, unknown>): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/** Sets a user (global) setting of MCP Roundtrip; `undefined` removes it. */
export async function setUserSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('mcpRoundtrip').update(key, value, vscode.ConfigurationTarget.Global);
}
