/**
 * The SDK transport for a server spec: a child process over stdio (its stderr read line by line),
 * Streamable HTTP, or a transport the caller builds (tests, in-process servers).
 *
 * Spec: MCP 2026-07-28 "Transports" (stdio, Streamable HTTP).
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { PrestartedStdioTransport } from './prestartedStdio';
import type { ServerSpec } from './serverSpec';

/** True when the SDK must treat the server as a stdio one (a probe that times out means a 2025-era server). */
export function isStdio(spec: ServerSpec): boolean {
  return spec.transport === 'stdio' || (spec.transport === 'custom' && spec.kind === 'stdio');
}

/**
 * A new transport for `spec`.
 * @param onStderr each line the stdio server writes on stderr
 */
export function createTransport(spec: ServerSpec, onStderr: (line: string) => void): Transport {
  switch (spec.transport) {
    case 'stdio': {
      const early = spec.prestarted?.();
      const t = early ? new PrestartedStdioTransport(early) : new StdioClientTransport({
        command: spec.command,
        args: spec.args ?? [],
        // Like VS Code: the server gets the host's environment plus its own settings.
        env: { ...(process.env as Record<string, string>), ...(spec.env ?? {}) },
        cwd: spec.cwd,
        stderr: 'pipe',
      });
      const stderr = t.stderr as Readable | null;
      if (stderr) createInterface({ input: stderr }).on('line', onStderr);
      return t;
    }
    case 'http':
      return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers ?? {} } });
    case 'custom': {
      const t = spec.create();
      // The SDK treats a transport with stderr+pid as stdio (probe timeout = legacy server).
      if (spec.kind === 'stdio' && !('pid' in t)) Object.assign(t, { stderr: null, pid: null });
      return t;
    }
  }
}
