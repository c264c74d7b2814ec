/**
 * The servers after a reload of their sources (`serverRegistry.ts`): one entry per name (a later
 * definition of a name is a problem), workspace servers held back in an untrusted workspace, an
 * unchanged definition keeping its entry and connection, a changed or removed one closed.
 */
import type { ServerDefinition } from '../../core/config/servers';
import type { ServerEntry } from './serverEntry';

/** Why a workspace server is not started in an untrusted workspace. */
const UNTRUSTED = 'not started: this workspace is not trusted, and the server is defined by the workspace. Trust the workspace to use it.';

/**
 * The entries of `defs`, in their order, reusing those of `entries` whose definition (and held-back
 * state) did not change; the connections of the others are closed (not awaited).
 * @param problems receives a sentence per duplicate name (the first definition wins)
 * @param trusted whether the workspace is trusted
 */
export function nextEntries(
  entries: ReadonlyMap<string, ServerEntry>,
  defs: readonly ServerDefinition[],
  problems: string[],
  trusted: boolean,
): Map<string, ServerEntry> {
  const next = new Map<string, ServerEntry>();
  for (const def of defs) {
    if (next.has(def.name)) {
      problems.push(
        `${def.source.location}: server "${def.name}" is already defined by ${next.get(def.name)!.def.source.location}; this one is ignored`,
      );
      continue;
    }
    const heldBack = !trusted && (def.source.kind === 'workspaceFile' || def.source.kind === 'workspaceSettings') ? UNTRUSTED : undefined;
    const old = entries.get(def.name);
    if (old && JSON.stringify(old.def) === JSON.stringify(def) && !!old.heldBack === !!heldBack) next.set(def.name, old);
    else {
      void old?.connection?.close();
      next.set(def.name, { name: def.name, def, heldBack });
    }
  }
  for (const [name, old] of entries) if (!next.has(name)) void old.connection?.close();
  return next;
}
