/** One configured server as the Servers view and the commands see it: its definition, where it comes from, and its connection state. */
import type { ServerDefinition } from '../../core/config/servers';
import type { ServerConnection } from '../../core/connection/serverConnection';

/** One server as shown in the view and the pickers. */
export interface ServerEntry {
  name: string;
  def: ServerDefinition;
  /** Why it is not started (untrusted workspace), if so. */
  heldBack?: string;
  /** The connection, once used. */
  connection?: ServerConnection;
  /** A configuration problem (unknown variable, ...), once tried. */
  error?: string;
  /** Who the server is signed in with (OAuth), once known. */
  signIn?: { issuer: string; account?: string; expiresAt?: number };
}
