/**
 * The client capability that tells a server this host renders MCP Apps. In a 2025-era session it rides
 * in `initialize`; in 2026-07-28 in every request's client capabilities: the same `capabilities` object
 * given to the SDK's client carries it in both eras.
 *
 * Spec: MCP Apps extension (2026-01-26), "Client capability": `extensions["io.modelcontextprotocol/ui"]
 * = { mimeTypes: ["text/html;profile=mcp-app"] }` (`mimeTypes` required).
 */
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { APP_MIME_TYPE, APPS_EXTENSION_ID } from './appTool';

/**
 * `capabilities` with the MCP Apps extension added when `enabled` (a new object; other extensions are
 * kept), or `capabilities` itself when not. With `options.elicitation` (only a host that can render an
 * app in its round panel, and that answers form elicitations) the extension also carries
 * `elicitation: {}`: app-rendered elicitation (SEP-3118, `appElicitation.ts`).
 */
export function withAppsCapability(
  capabilities: ClientCapabilities,
  enabled: boolean,
  options: { elicitation?: boolean } = {},
): ClientCapabilities {
  if (!enabled) return capabilities;
  const extensions = { ...((capabilities as { extensions?: Record<string, unknown> }).extensions ?? {}) };
  const formElicitation = !!(capabilities.elicitation as { form?: unknown } | undefined)?.form;
  extensions[APPS_EXTENSION_ID] = {
    mimeTypes: [APP_MIME_TYPE],
    ...(options.elicitation && formElicitation ? { elicitation: {} } : {}),
  };
  return { ...capabilities, extensions } as ClientCapabilities;
}

/** True when `capabilities` advertise the MCP Apps extension with its mime type. */
export function advertisesApps(capabilities: ClientCapabilities | undefined): boolean {
  const ext = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[APPS_EXTENSION_ID];
  return (
    typeof ext === 'object' &&
    ext !== null &&
    Array.isArray((ext as { mimeTypes?: unknown }).mimeTypes) &&
    (ext as { mimeTypes: unknown[] }).mimeTypes.includes(APP_MIME_TYPE)
  );
}
