/**
 * The roots a round was answered with, shown for transparency: roots are answered from the workspace
 * folders without asking, so this input never waits for the person and takes no message.
 *
 * Spec: MCP 2026-07-28 "Roots" (`ListRootsResult`).
 */
import type { ListRootsResult } from '@modelcontextprotocol/client';
import type { RootsInputView } from '../protocol';
import { PendingInput } from './pendingInput';

/** The roots answered, shown as a note; never pending. */
export class RootsNote extends PendingInput {
  readonly kind = 'roots';
  private readonly roots: RootsInputView['roots'];

  constructor(id: string, key: string, answered: ListRootsResult) {
    super(id, key);
    this.roots = (Array.isArray(answered.roots) ? answered.roots : []).map((r) => ({
      uri: String(r.uri),
      ...(typeof r.name === 'string' ? { name: r.name } : {}),
    }));
  }

  get pending(): boolean {
    return false;
  }

  view(): RootsInputView {
    return { kind: 'roots', id: this.id, key: this.key, roots: this.roots };
  }
}
