// Which client capabilities a request declared, and the -32021 answer when one is missing.
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  type ClientCapabilities,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isPlainObject } from '../core/util/json';

/**
 * The client capabilities in force for this request.
 *
 * On 2026-07-28 every request carries its own in `_meta["io.modelcontextprotocol/clientCapabilities"]`
 * (the SDK lifts it into `ctx.mcpReq.envelope`); on a 2025 connection they were declared once in
 * `initialize`. Returns `undefined` when neither exists (e.g. stateless 2025 HTTP, which never saw
 * an `initialize` on this instance).
 */
export function declaredCapabilities(ctx: ServerContext, server: McpServer): ClientCapabilities | undefined {
  // The SDK's published RequestMetaEnvelope type is empty ({}), hence the cast.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const perRequest = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  if (perRequest !== undefined) return perRequest;
  // Deprecated only for the modern era, where the envelope above is the source; it is the 2025 answer.
  return server.server.getClientCapabilities();
}

/**
 * The part of `required` that `declared` lacks, in `ClientCapabilities` shape, or `undefined` when
 * nothing is missing. Same reading as the SDK's own gate: a top-level key must be present, named
 * members (e.g. `elicitation.url`) too, and a bare `elicitation: {}` counts as form support (its
 * 2025 meaning).
 */
export function missingCapabilities(
  required: ClientCapabilities,
  declared: ClientCapabilities | undefined,
): ClientCapabilities | undefined {
  const missing: Record<string, unknown> = {};
  for (const [name, requirement] of Object.entries(required) as [string, unknown][]) {
    if (requirement === undefined) continue;
    const have = (declared as Record<string, unknown> | undefined)?.[name];
    if (have === undefined || have === null) {
      missing[name] = requirement;
      continue;
    }
    if (!isPlainObject(requirement) || !isPlainObject(have)) continue;
    const members: Record<string, unknown> = {};
    for (const [member, sub] of Object.entries(requirement)) {
      const implied = name === 'elicitation' && member === 'form' && have.form === undefined && have.url === undefined;
      if (sub !== undefined && have[member] === undefined && !implied) members[member] = sub;
    }
    if (Object.keys(members).length > 0) missing[name] = members;
  }
  return Object.keys(missing).length > 0 ? missing : undefined;
}

/**
 * Throws `MissingRequiredClientCapabilityError` (-32021, `data.requiredCapabilities` = the missing
 * part) when the request's client did not declare everything `required` lists. `what` names the
 * tool/prompt/resource for the message.
 *
 * Checked before the first round, for the whole flow: a user should not fill in a form only to learn
 * at round two that the host cannot sample. Spec: basic/patterns/mrtr (a server must not send an
 * input request the client's capabilities do not cover; it answers -32021 instead).
 */
export function requireCapabilities(ctx: ServerContext, server: McpServer, required: ClientCapabilities, what: string): void {
  const declared = declaredCapabilities(ctx, server);
  const missing = missingCapabilities(required, declared);
  if (missing === undefined) return;
  const why =
    declared === undefined
      ? ' (no client capabilities are known for this request: 2025 clients over HTTP are served statelessly and cannot be asked anything; use stdio or protocol 2026-07-28)'
      : '';
  throw new MissingRequiredClientCapabilityError(
    { requiredCapabilities: missing },
    `${what} needs client capabilities this request did not declare: ${describe(missing)}${why}`,
  );
}

function describe(caps: ClientCapabilities): string {
  return Object.entries(caps)
    .map(([name, value]) =>
      isPlainObject(value) && Object.keys(value).length > 0
        ? Object.keys(value)
            .map((m) => `${name}.${m}`)
            .join(', ')
        : name,
    )
    .join(', ');
}
