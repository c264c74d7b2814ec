/**
 * A server's lists (tools, prompts, resources, resource templates) kept for its session while the
 * server tells of their changes, so that showing a list again (the palette, the Servers view, chat)
 * does not walk every page of it again: a server with thousands of tools answers `tools/list` in
 * many pages. A list is kept only when its server will say it changed (the caller decides: MCP
 * "List Changed Notification"), dropped when it says so, and never outlives the session it was read
 * on. A listing that a change overtook is not kept.
 */
import type { ChangedList } from '../log/events';
import type { ListKind } from './boundedList';
import type { Session } from './session';

/** The lists a `notifications/<list>/list_changed` makes stale. */
const STALE_ON: Record<ChangedList, readonly ListKind[]> = {
  tools: ['tools'],
  prompts: ['prompts'],
  resources: ['resources', 'resourceTemplates'],
};

/** The list whose changes make a `ListKind` stale. */
export const CHANGED_LIST_OF: Record<ListKind, ChangedList> = {
  tools: 'tools',
  prompts: 'prompts',
  resources: 'resources',
  resourceTemplates: 'resources',
};

/** The lists of one server's current session; see the module's comment. */
export class ListCache {
  private owner: Session | undefined;
  private readonly lists = new Map<ListKind, readonly unknown[]>();
  /** Changes told per list so far: a listing started before the latest one is stale. */
  private readonly changes = new Map<ListKind, number>();

  /** The kept list of `kind`, read on `session` (a copy the caller may change), or `undefined`. */
  kept(session: Session | undefined, kind: ListKind): unknown[] | undefined {
    const items = session && session === this.owner ? this.lists.get(kind) : undefined;
    return items && [...items];
  }

  /** Taken before a listing starts and handed to {@link keep}: a change told meanwhile makes it stale. */
  stamp(kind: ListKind): number {
    return this.changes.get(kind) ?? 0;
  }

  /** Keeps `items`, read on `session` from `stamp` on, unless a change was told since. */
  keep(session: Session, kind: ListKind, stamp: number, items: readonly unknown[]): void {
    if (stamp !== this.stamp(kind)) return;
    if (session !== this.owner) {
      this.owner = session;
      this.lists.clear();
    }
    this.lists.set(kind, [...items]);
  }

  /** The server said `list` changed (or can no longer say so): what it makes stale is dropped. */
  changed(list: ChangedList): void {
    for (const kind of STALE_ON[list]) {
      this.changes.set(kind, this.stamp(kind) + 1);
      this.lists.delete(kind);
    }
  }

  /** A new session: nothing kept from the last one. */
  clear(): void {
    this.owner = undefined;
    this.lists.clear();
  }
}
