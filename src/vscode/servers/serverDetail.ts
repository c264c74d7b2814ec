/** The one line that describes a server in the pickers and the servers view. */
import * as vscode from 'vscode';
import type { ServerEntry } from './serverEntry';
import { signedInText } from '../../core/oauth/signedInText';

/**
 * A server's state in one line: why it is held back or misconfigured, "not started" with where it is
 * defined, or its connection state, era and protocol version, who it is signed in with, and what
 * went wrong last (a server that wants a sign-in says so there).
 */
export function serverDetail(e: ServerEntry): string {
  if (e.heldBack) return vscode.l10n.t('held back (untrusted workspace)');
  if (e.error) return vscode.l10n.t('configuration problem: {0}', e.error);
  const c = e.connection;
  if (!c || c.state === 'idle') return vscode.l10n.t('not started · {0}', e.def.source.location);
  const era = c.era ? `${c.era === 'modern' ? c.protocolVersion : `${c.protocolVersion ?? '2025'} (legacy)`}` : '';
  return [c.state, era, signedInText(e.signIn), c.status.message].filter(Boolean).join(' · ');
}
