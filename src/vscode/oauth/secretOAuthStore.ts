/**
 * The extension's sign-ins in VS Code's secret storage (`context.secrets`: the OS keychain on
 * desktop, kept on the local side in remote windows), under `mcpRoundtrip.oauth.v1/` keys. Never in
 * settings, globalState or a file of the extension's.
 */
import type * as vscode from 'vscode';
import type { OAuthStore } from '../../core/oauth/oauthStore';

const PREFIX = 'mcpRoundtrip.oauth.v1/';

/** An {@link OAuthStore} over `SecretStorage`. */
export class SecretOAuthStore implements OAuthStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(key: string): Promise<string | undefined> {
    return this.secrets.get(PREFIX + key);
  }
  async set(key: string, value: string): Promise<void> {
    await this.secrets.store(PREFIX + key, value);
  }
  async delete(key: string): Promise<void> {
    await this.secrets.delete(PREFIX + key);
  }
  async keys(): Promise<string[]> {
    return (await this.secrets.keys()).filter((k) => k.startsWith(PREFIX)).map((k) => k.slice(PREFIX.length));
  }
}
