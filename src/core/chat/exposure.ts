/**
 * Which of the host's servers are offered to VS Code's chat through the bridge (setting
 * `mcpRoundtrip.chat.exposeServers`), and why each one is or is not. By default only the servers VS
 * Code cannot serve itself: those that speak nothing but 2026-07-28 (VS Code 1.139 speaks only the
 * 2025 era). A server that also speaks 2025 would otherwise show its tools twice, once from VS Code's
 * own `mcp.json` and once from us.
 *
 * Spec: MCP 2026-07-28 "Lifecycle" (`server/discover` lists `supportedVersions`).
 */
import { createHash } from 'node:crypto';
import { MODERN_PROTOCOL_VERSION } from '../connection/handshake';
import type { EraSetting } from '../connection/serverSpec';

/** The setting's value: the default rule, every server, none, or servers by name. */
export type ExposeSetting = 'modernOnly' | 'all' | 'none' | readonly string[];

/** The setting's default. */
export const DEFAULT_EXPOSE: ExposeSetting = 'modernOnly';

/**
 * Read the setting's raw value.
 * @returns the setting, and a problem naming what was wrong (then the default applies)
 */
export function parseExposeSetting(raw: unknown): { setting: ExposeSetting; problem?: string } {
  if (raw === undefined || raw === null) return { setting: DEFAULT_EXPOSE };
  if (raw === 'modernOnly' || raw === 'all' || raw === 'none') return { setting: raw };
  if (Array.isArray(raw) && raw.every((n) => typeof n === 'string')) return { setting: raw };
  return {
    setting: DEFAULT_EXPOSE,
    problem: `mcpRoundtrip.chat.exposeServers must be "modernOnly", "all", "none" or a list of server names; got ${JSON.stringify(raw)?.slice(0, 80)}. Using "modernOnly".`,
  };
}

/** What the host knows of a server when deciding. */
export interface ServerFacts {
  name: string;
  /** The era its configuration asks for. */
  configuredEra: EraSetting;
  /** Why it is not started (untrusted workspace), if so. */
  heldBack?: string;
  /** The era it negotiated, once connected (now or in an earlier window). */
  era?: 'modern' | 'legacy';
  /** The protocol versions its `server/discover` listed, once known. */
  supportedVersions?: readonly string[];
  /** Whether it answered the 2025 `initialize` handshake (`eraProbe.ts`), once tried. */
  legacyHandshake?: boolean;
}

/** A server's place in chat: offered or not, why, and whether connecting once would tell. */
export interface Exposure {
  exposed: boolean;
  /** One sentence for the view: why it is (not) in chat. */
  reason: string;
  /** The default rule needs the server's era, which only connecting tells (done when chat needs it). */
  needsProbe?: boolean;
}

/** True for a protocol version of the 2025 era or earlier (`YYYY-MM-DD` strings compare as dates). */
function isLegacyVersion(v: string): boolean {
  return v < MODERN_PROTOCOL_VERSION;
}

/** Decide whether `facts` is offered to chat under `setting`. */
export function exposureOf(setting: ExposeSetting, facts: ServerFacts): Exposure {
  if (facts.heldBack) return { exposed: false, reason: `not in chat: ${facts.heldBack}` };
  if (setting === 'none') return { exposed: false, reason: 'not in chat: mcpRoundtrip.chat.exposeServers is "none"' };
  if (setting === 'all') return { exposed: true, reason: 'in chat (mcpRoundtrip.chat.exposeServers is "all")' };
  if (Array.isArray(setting)) {
    return setting.includes(facts.name)
      ? { exposed: true, reason: 'in chat (listed in mcpRoundtrip.chat.exposeServers)' }
      : { exposed: false, reason: 'not in chat: not listed in mcpRoundtrip.chat.exposeServers' };
  }
  if (facts.era === 'legacy' || facts.configuredEra === 'legacy') return notServed('it speaks only the 2025 era');
  const listed = facts.supportedVersions?.filter(isLegacyVersion) ?? [];
  if (listed.length) return notServed(`it also speaks ${listed.join(', ')}`);
  if (facts.legacyHandshake) return notServed('it also answers the 2025 initialize handshake');
  const modern = facts.era === 'modern' || facts.configuredEra === 'modern';
  if (modern && facts.legacyHandshake === false)
    return { exposed: true, reason: 'in chat: it speaks only 2026-07-28, which VS Code cannot serve itself' };
  return {
    exposed: false,
    reason: 'not in chat yet: whether it speaks only 2026-07-28 is learnt when chat first needs its tools, or once it has been connected',
    needsProbe: true,
  };
}

/** Not offered by the default rule: VS Code can serve it itself. */
function notServed(why: string): Exposure {
  return {
    exposed: false,
    reason: `not in chat: ${why}, so VS Code can serve it itself (add it to mcp.json, or list it in mcpRoundtrip.chat.exposeServers)`,
  };
}

/**
 * The `version` of a bridged server's definition: a digest of its tool list (names, descriptions,
 * schemas), so VS Code notices when the tools change. 16 hex digits.
 */
export function toolsVersion(tools: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(tools)).digest('hex').slice(0, 16);
}
