/**
 * The extension's global state (`ExtensionContext.globalState`) as this window last wrote it.
 *
 * VS Code sends every write of an extension's global state back to the extension host, and the
 * memento takes that echo as its whole value. A write made after an earlier write was sent but
 * before its echo came back is then gone from memory, and the next write stores the stale value
 * without it (seen in VS Code 1.139: a server's era, learnt a moment before, read as unknown and kept
 * it out of chat). So a key written in this window reads as it was written here, and a write the
 * stored value lost is written again.
 */
import type * as vscode from 'vscode';

/** How many times a write the echo undid is written again before it is left to the next write. */
const REWRITES = 3;

/** `ExtensionContext.globalState` wrapped: this window's writes are read back as written. */
export class GlobalState implements vscode.Memento {
  /** Each key written in this window, as written (JSON, so a caller's later change of an object is not seen). */
  private readonly written = new Map<string, string | undefined>();

  constructor(private readonly state: vscode.Memento) {}

  keys(): readonly string[] {
    const keys = new Set(this.state.keys());
    for (const [key, json] of this.written) {
      if (json === undefined) keys.delete(key);
      else keys.add(key);
    }
    return [...keys];
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    if (!this.written.has(key)) return defaultValue === undefined ? this.state.get<T>(key) : this.state.get<T>(key, defaultValue);
    const json = this.written.get(key);
    return json === undefined ? defaultValue : (JSON.parse(json) as T);
  }

  /**
   * Store `value` (JSON-serialisable; `undefined` removes the key). Resolves once VS Code stored it,
   * written again (at most {@link REWRITES} times) when the stored value came back without it.
   */
  async update(key: string, value: unknown): Promise<void> {
    const json = value === undefined ? undefined : JSON.stringify(value);
    this.written.set(key, json);
    await this.state.update(key, value);
    for (let i = 0; i < REWRITES && this.lost(key); i++) await this.state.update(key, this.get(key));
  }

  /** Whether the stored value of `key` differs from this window's last write of it. */
  private lost(key: string): boolean {
    if (!this.written.has(key)) return false;
    const stored = this.state.get(key);
    return (stored === undefined ? undefined : JSON.stringify(stored)) !== this.written.get(key);
  }
}
