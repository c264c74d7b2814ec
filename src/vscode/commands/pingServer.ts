/**
 * Ping Server (palette, and a server's context menu in the Servers view): whether the server is there
 * and answering, said in a notification and the round-trip log. The logic and its line are the core's
 * (`core/connection/ping.ts`, shared with the CLI's `ping`); the ping's time limit is a call's
 * (`mcpRoundtrip.callTimeoutSeconds`).
 *
 * Spec: MCP 2025-11-25 "Ping"; 2026-07-28 has none (its server answered `server/discover`).
 */
import * as vscode from 'vscode';
import { pingLine, pingServer as ping } from '../../core/connection/ping';
import { errorMessage } from '../../core/util/errors';
import { withDelayedProgress } from '../shared/delayedProgress';
import { notificationText } from '../shared/notificationText';
import type { ServerEntry } from '../servers/serverEntry';
import { pickServer } from './pickAndRun';
import { callLimits, type CallDeps } from './runCall';

/**
 * Ping `entry` (picked in a quick pick when not given), connecting it first: the line
 * (`pong from <server> in <ms> ms`, or that a 2026-07-28 server answered `server/discover`) is shown in
 * an information message and logged; a failure (connecting, the ping, its time limit, Cancel in the
 * progress notification) is shown as an error naming the server. Never throws.
 */
export async function pingServer(deps: CallDeps, entry?: ServerEntry): Promise<void> {
  entry ??= await pickServer(deps, 'Ping which server?');
  if (!entry) return;
  const name = entry.name;
  try {
    const conn = await deps.registry.connection(entry);
    const { timeoutMs } = callLimits(deps.log);
    const answer = await withDelayedProgress(`Pinging ${name}`, (_progress, signal) => ping(conn, { signal, timeoutMs }));
    const line = pingLine(name, answer);
    deps.log.info(line);
    void vscode.window.showInformationMessage(notificationText(`${line}.`));
  } catch (e) {
    deps.log.warn(`ping ${name}: ${errorMessage(e)}`);
    void vscode.window.showErrorMessage(notificationText(`${name}: ${errorMessage(e)}`));
  } finally {
    deps.registry.touch();
  }
}
