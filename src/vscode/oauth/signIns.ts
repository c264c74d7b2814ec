/**
 * The extension's sign-ins: the OAuth host every HTTP server connection gets (secret storage, the VS
 * Code driver, no sign-in for a workspace-defined server in an untrusted workspace), who each server
 * is signed in with (shown in the servers view), and the commands **Sign Out of Server…** and
 * **Clear Stored Sign-Ins**.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { HostEvent } from '../../core/log/events';
import { Credentials, serverKey } from '../../core/oauth/credentials';
import type { OAuthHost } from '../../core/oauth/serverOAuth';
import { signedInText } from '../../core/oauth/signedInText';
import { HostError } from '../../core/util/errors';
import type { ServerRegistry } from '../servers/serverRegistry';
import type { ServerEntry } from '../servers/serverEntry';
import type { RoundTripLog } from '../shared/roundTripLog';
import { notificationText } from '../shared/notificationText';
import { SecretOAuthStore } from './secretOAuthStore';
import { DEFAULT_CALLBACK_PORT } from '../../core/oauth/oauthSettings';
import { oidcIdTokens } from '../../core/oauth/oidcSignIn';
import { vscodeIdTokens } from './vscodeIdTokens';
import { vscodeSignIn } from './vscodeSignIn';

/** The sign-ins of the extension (see the module comment). */
export class SignIns {
  readonly host: OAuthHost;
  readonly credentials: Credentials;

  constructor(
    context: vscode.ExtensionContext,
    private readonly registry: () => ServerRegistry,
    private readonly log: RoundTripLog,
  ) {
    const store = new SecretOAuthStore(context.secrets);
    this.credentials = new Credentials(store);
    const mayAuthorize = (server: string) => this.mayAuthorize(server);
    const driver = vscodeSignIn(mayAuthorize);
    this.host = {
      store,
      driver,
      clientName: 'MCP Roundtrip (VS Code)',
      // A VS Code authentication provider when the settings name one, else our own OIDC sign-in at the IdP.
      idTokens: oidcIdTokens({ store, driver, callbackPort: DEFAULT_CALLBACK_PORT, preferred: vscodeIdTokens(mayAuthorize) }),
    };
  }

  /** @throws HostError `auth` for a server defined by a workspace that is not trusted */
  private mayAuthorize(server: string): void {
    const kind = this.registry().get(server)?.def.source.kind;
    if ((kind === 'workspaceFile' || kind === 'workspaceSettings') && !vscode.workspace.isTrusted) {
      throw new HostError('auth', `not signing in to ${server}: it is defined by this workspace, which is not trusted`);
    }
  }

  /** A host event: after a sign-in step, show the server's new state. */
  onEvent(e: HostEvent): void {
    if (e.kind === 'auth') void this.refresh(e.server);
  }

  /** Read who `server` is signed in with and redraw the view. */
  async refresh(server: string): Promise<void> {
    const entry = this.registry().get(server);
    const oauth = entry?.connection?.oauth;
    if (!entry || !oauth) return;
    entry.signIn = await oauth.status();
    this.registry().touch();
  }

  /** A short fingerprint (SHA-256, 16 hex) of the access token kept for `server`, for tests: never the token. */
  async fingerprint(server: string): Promise<string | undefined> {
    const url = this.registry().get(server)?.connection?.oauth?.serverUrl;
    const token = url ? (await this.credentials.tokens(url))?.tokens.access_token : undefined;
    return token ? createHash('sha256').update(token).digest('hex').slice(0, 16) : undefined;
  }

  /** **Sign Out of Server…**: pick a signed-in server, forget its tokens. */
  async signOut(entry?: ServerEntry): Promise<void> {
    const stored = await this.credentials.signedIn();
    const named = (url: string) =>
      this.registry()
        .list()
        .find((e) => e.connection?.oauth && serverKey(e.connection.oauth.serverUrl) === url);
    const items = stored.map((s) => ({
      label: named(s.serverUrl)?.name ?? s.serverUrl,
      description: signedInText(s),
      detail: s.serverUrl,
      url: s.serverUrl,
    }));
    const wanted = entry?.connection?.oauth ? serverKey(entry.connection.oauth.serverUrl) : undefined;
    const pick = wanted
      ? items.find((i) => i.url === wanted)
      : items.length
        ? await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Sign out of which server?') })
        : undefined;
    if (!items.length) return void vscode.window.showInformationMessage(vscode.l10n.t('MCP Roundtrip: no server is signed in.'));
    if (!pick) return;
    const owner = named(pick.url);
    if (owner?.connection) await owner.connection.signOut();
    else await this.credentials.forgetTokens(pick.url);
    if (owner) owner.signIn = undefined;
    if (!owner?.connection) this.log.info(`[${pick.label}] sign-in: signed out`);
    this.registry().touch();
    void vscode.window.showInformationMessage(
      notificationText(vscode.l10n.t('Signed out of {0}. It asks you to sign in again the next time it is used.', pick.label)),
    );
  }

  /** **Clear Stored Sign-Ins**: after a confirmation, remove every token and client registration. */
  async clear(): Promise<void> {
    const clear = vscode.l10n.t('Clear');
    const yes = await vscode.window.showWarningMessage(
      vscode.l10n.t('Remove every sign-in MCP Roundtrip keeps (tokens and client registrations of all servers)?'),
      { modal: true },
      clear,
    );
    if (yes !== clear) return;
    for (const e of this.registry().list()) if (e.connection?.oauth) await e.connection.signOut();
    const n = await this.credentials.clear();
    for (const e of this.registry().list()) e.signIn = undefined;
    this.log.info(`sign-ins cleared (${n} stored entr${n === 1 ? 'y' : 'ies'} removed)`);
    this.registry().touch();
    void vscode.window.showInformationMessage(vscode.l10n.t('MCP Roundtrip: stored sign-ins cleared ({0} entries).', n));
  }
}
