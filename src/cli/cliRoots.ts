/**
 * The CLI's roots: offered only when the person gives them. A server such as
 * `@modelcontextprotocol/server-filesystem` replaces the directories on its command line with the
 * client's roots once the client declares the `roots` capability; a default root (the current
 * directory) would take away the directories the person started it with.
 *
 * Spec: MCP 2026-07-28 "Roots" (a client that supports roots declares the `roots` capability) and
 * "Lifecycle" (capabilities: a server uses only what the client declared).
 */
import { HostError } from '../core/util/errors';
import type { InputProvider } from '../core/inputs/inputProvider';
import { isPlainObject } from '../core/util/json';
import { cliText } from './messages';

/**
 * `provider` as it is when roots are given (`--roots`, or a `ListRootsResult` among the scripted
 * answers); otherwise without the `roots` capability, and a `roots/list` the server asks anyway ends
 * the call with a missing answer (exit 3) that says to give `--roots`.
 */
export function rootsOnlyWhenGiven(provider: InputProvider, rootDirs: readonly string[], answers: Record<string, unknown>): InputProvider {
  const scriptedRoots = Object.values(answers).some((a) => isPlainObject(a) && Array.isArray(a.roots));
  if (rootDirs.length || scriptedRoots) return provider;
  const { roots: _omitted, ...capabilities } = provider.capabilities;
  return {
    capabilities,
    elicit: (p, ctx) => provider.elicit(p, ctx),
    sample: (p, ctx) => provider.sample(p, ctx),
    // The person's "done" at a URL a -32042 asked to open: without it the call would be sent again at once.
    ...(provider.urlDone ? { urlDone: provider.urlDone.bind(provider) } : {}),
    listRoots: (ctx) =>
      Promise.reject(
        new HostError(
          'missingAnswer',
          `${ctx.round.server} asked for roots (roots/list, "${ctx.key}") in round ${ctx.round.round}; the CLI offers roots only when given: add --roots <dir>`,
        ),
      ),
  };
}

/**
 * What to do after a call failed because the server wanted roots the CLI did not offer (no
 * `--roots`): it asked for them anyway (a protocol error), or refused the call for the missing
 * capability (MCP 2026-07-28 error -32021, missing required client capability): the line to add on
 * stderr, or `undefined` for any other failure.
 */
export function rootsHint(e: HostError, rootDirs: readonly string[]): string | undefined {
  if (rootDirs.length) return undefined;
  const askedAnyway = e.kind === 'protocol' && /asked for roots\/list \(/.test(e.message);
  const refused = e.kind === 'server' && /-32021/.test(e.message) && /\broots\b/.test(e.message);
  if (!askedAnyway && !refused) return undefined;
  return cliText('the CLI offers roots only when given: add --roots <dir> (repeatable)');
}
