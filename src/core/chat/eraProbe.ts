/**
 * Whether a 2026-07-28 server also speaks the 2025 era, which VS Code's own MCP client (1.139) needs.
 * `server/discover` does not tell: the official SDK's servers list only 2026-07-28 in
 * `supportedVersions` and still answer the 2025 `initialize`. So the host tries that handshake once,
 * on a connection of its own that it closes at once (a stdio server is started for it and stopped).
 * The era itself, for a server nobody has used yet, is learnt the same way: never on the connection
 * the registry hands to calls, which a person may start using at any moment.
 *
 * Spec: MCP 2025-11-25 "Lifecycle" (`initialize`); MCP 2026-07-28 "Lifecycle" (`server/discover`).
 */
import { ServerConnection } from '../connection/serverConnection';
import type { ServerSpec } from '../connection/serverSpec';
import { NO_INPUTS } from '../inputs/inputProvider';

/** How long the 2025 handshake may take before the server counts as not speaking it, ms. */
export const LEGACY_PROBE_TIMEOUT_MS = 10_000;

/** What connecting taught about a server's era. */
export interface EraFacts {
  era: 'modern' | 'legacy';
  supportedVersions?: readonly string[];
}

/**
 * Connect to `spec`'s server on a connection of its own (era negotiation as configured), then close it.
 * @returns its era and the versions `server/discover` listed
 * @throws HostError when it cannot be connected within `timeoutMs`
 */
export async function probeEra(spec: ServerSpec, timeoutMs = LEGACY_PROBE_TIMEOUT_MS): Promise<EraFacts> {
  const conn = new ServerConnection(spec, {
    provider: NO_INPUTS,
    clientInfo: { name: 'mcp-roundtrip-era-probe', version: '1' },
    connectTimeoutMs: timeoutMs,
  });
  try {
    await conn.ensureConnected();
    return { era: conn.era ?? 'modern', supportedVersions: conn.supportedVersions };
  } finally {
    await conn.close();
  }
}

/**
 * Try the 2025 `initialize` handshake with `spec`'s server.
 * @returns true when it answered it (VS Code can serve the server itself), false when it refused
 *   it, failed or did not answer within `timeoutMs`
 */
export async function answersLegacyHandshake(spec: ServerSpec, timeoutMs = LEGACY_PROBE_TIMEOUT_MS): Promise<boolean> {
  const conn = new ServerConnection(
    { ...spec, era: 'legacy' },
    { provider: NO_INPUTS, clientInfo: { name: 'mcp-roundtrip-era-probe', version: '1' }, connectTimeoutMs: timeoutMs },
  );
  try {
    await conn.ensureConnected();
    return conn.era === 'legacy';
  } catch {
    return false;
  } finally {
    await conn.close();
  }
}
