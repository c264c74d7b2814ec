// where_am_i: one roots round; answers with the workspace roots the host shared.
import { fileURLToPath } from 'node:url';
import { inputRequired, type Root } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { defineTool, textResult } from '../tool';

/** The `inputRequests` key of the roots request. */
export const WHERE_ROOTS_KEY = 'roots';
/** At most this many roots are listed (the rest are counted): the answer is untrusted client input. */
export const MAX_LISTED_ROOTS = 50;

/** One root as the result reports it: what the host sent, checked, plus the local path of a file:// URI. */
export interface ListedRoot {
  uri: string;
  name: string | null;
  path: string | null;
}

const Args = z.object({});

/**
 * `where_am_i`: asks `roots/list` once (spec: client/roots, embedded in an `input_required` result)
 * and answers with the workspace roots it was given: name, URI and, for file:// URIs, the local
 * path. Needs roots. A retry that carries no roots answer is asked again. No `requestState`: the
 * flow has nothing to remember between its two legs.
 */
export const whereAmI = defineTool<typeof Args, never>({
  name: 'where_am_i',
  title: 'Where am I?',
  description:
    'Asks your host which workspace folders (roots) it shares with servers, and lists them with their names, URIs and local paths. Nothing is read or written.',
  args: Args,
  needs: { roots: {} },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(_args, round) {
    const answer = round.answer(WHERE_ROOTS_KEY);
    if (answer.kind !== 'roots') return round.ask({ [WHERE_ROOTS_KEY]: inputRequired.listRoots() });
    return rootsResult(answer.roots);
  },
});

/** The result for the roots a host sent: one line per root (at most {@link MAX_LISTED_ROOTS}). */
function rootsResult(roots: readonly Root[]) {
  const listed = roots.slice(0, MAX_LISTED_ROOTS).map(listRoot);
  const more = roots.length - listed.length;
  if (listed.length === 0) {
    return textResult('Your host shares no workspace roots with servers (it answered roots/list with an empty list).', {
      count: 0,
      roots: [],
    });
  }
  const lines = listed.map((r) => `- ${r.name ?? '(unnamed)'}: ${r.uri}${r.path !== null && r.path !== r.uri ? ` (${r.path})` : ''}`);
  const head = `Your host shares ${roots.length} workspace root${roots.length === 1 ? '' : 's'} with servers:`;
  const text = [head, ...lines, ...(more > 0 ? [`... and ${more} more.`] : [])].join('\n');
  return textResult(text, { count: roots.length, roots: listed });
}

/** A root from the client (untrusted): its URI and name as strings, and the local path of a file:// URI. */
function listRoot(root: Root): ListedRoot {
  const uri = typeof root?.uri === 'string' ? root.uri : String(root?.uri ?? '');
  const name = typeof root?.name === 'string' && root.name !== '' ? root.name : null;
  let path: string | null = null;
  if (uri.startsWith('file:')) {
    try {
      path = fileURLToPath(uri);
    } catch {
      path = null; // e.g. file://otherhost/... on POSIX
    }
  }
  return { uri, name, path };
}
