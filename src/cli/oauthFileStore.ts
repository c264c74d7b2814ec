/**
 * The CLI's sign-ins on disk: one JSON file readable and writable by the user only (mode 0600, in a
 * 0700 directory), written atomically (a temporary file renamed over it) and read anew for every
 * operation, so two CLI processes see each other's sign-ins. Nothing else the CLI writes holds a token.
 *
 * Where: `$MCP_ROUNDTRIP_CONFIG_DIR`, else the user's config directory (`$XDG_CONFIG_HOME` or
 * `~/.config` on Linux, `~/Library/Application Support` on macOS, `%APPDATA%` on Windows), then
 * `mcp-roundtrip/oauth.json`.
 */
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OAuthStore } from '../core/oauth/oauthStore';
import { HostError } from '../core/util/errors';
import { isPlainObject } from '../core/util/json';

/** The folder of the CLI's own files (see the module comment). */
export function configDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.MCP_ROUNDTRIP_CONFIG_DIR) return env.MCP_ROUNDTRIP_CONFIG_DIR;
  const home = os.homedir();
  const base =
    platform === 'win32'
      ? (env.APPDATA ?? path.join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? path.join(home, '.config'));
  return path.join(base, 'mcp-roundtrip');
}

/** The default file of the CLI's sign-ins. */
export function defaultOAuthFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), 'oauth.json');
}

/** An {@link OAuthStore} in a 0600 JSON file (see the module comment). */
export class FileOAuthStore implements OAuthStore {
  constructor(readonly file: string) {}

  private read(): Record<string, string> {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new HostError('auth', `cannot read the sign-ins in ${this.file}: ${(e as Error).message}`);
    }
    try {
      const doc = JSON.parse(text) as unknown;
      const entries = isPlainObject(doc) && isPlainObject(doc.entries) ? doc.entries : {};
      return Object.fromEntries(Object.entries(entries).filter((kv): kv is [string, string] => typeof kv[1] === 'string'));
    } catch {
      throw new HostError('auth', `${this.file} is not the JSON the CLI writes; remove it to sign in again`);
    }
  }

  private write(entries: Record<string, string>): void {
    const dir = path.dirname(this.file);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, JSON.stringify({ version: 1, entries }, null, 2) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // The mode is set at creation; chmod again for a umask or file system that changed it.
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }

  async get(key: string): Promise<string | undefined> {
    return this.read()[key];
  }
  async set(key: string, value: string): Promise<void> {
    this.write({ ...this.read(), [key]: value });
  }
  async delete(key: string): Promise<void> {
    const entries = this.read();
    if (!(key in entries)) return;
    delete entries[key];
    this.write(entries);
  }
  async keys(): Promise<string[]> {
    return Object.keys(this.read());
  }
}
