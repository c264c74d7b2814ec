/**
 * Where sign-ins are kept: a string store by key. The extension backs it with VS Code's secret
 * storage, the CLI with a 0600 file (or memory), the conformance client with memory. Nothing else
 * ever holds a token, a refresh token or a client secret.
 */

/** A small key-value store of secret strings (JSON documents). Every method may reject on an I/O failure. */
export interface OAuthStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every key held (used to list and clear sign-ins). */
  keys(): Promise<string[]>;
}

/** An {@link OAuthStore} in memory: gone when the process ends. */
export class MemoryOAuthStore implements OAuthStore {
  private readonly map = new Map<string, string>();

  async get(key: string): Promise<string | undefined> {
    return this.map.get(key);
  }
  async set(key: string, value: string): Promise<void> {
    this.map.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.map.delete(key);
  }
  async keys(): Promise<string[]> {
    return [...this.map.keys()];
  }
}
