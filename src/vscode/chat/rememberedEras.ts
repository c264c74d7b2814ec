/**
 * What connections learnt of each server's era, remembered across windows in VS Code's global
 * state, keyed by how the server is reached (not where it is defined), so a server need not be
 * connected again to know whether it goes into chat (`chatExposure.ts`).
 */
import { createHash } from 'node:crypto';
import type * as vscode from 'vscode';
import type { ServerFacts } from '../../core/chat/exposure';
import type { ServerEntry } from '../servers/serverEntry';

/** The globalState key of the remembered eras. */
const ERAS_KEY = 'mcpRoundtrip.chat.eras';

/** What is remembered of one server. */
export type Remembered = Pick<ServerFacts, 'era' | 'supportedVersions' | 'legacyHandshake'>;

/** The eras remembered in a memento, by server definition. */
export class RememberedEras {
  constructor(private readonly memento: vscode.Memento) {}

  /** What is remembered of `entry` (empty when nothing is). */
  of(entry: ServerEntry): Remembered {
    return this.all()[definitionKey(entry)] ?? {};
  }

  /** Remember `patch` about `entry` (across windows). @returns whether anything changed */
  remember(entry: ServerEntry, patch: Remembered): boolean {
    const all = this.all();
    const key = definitionKey(entry);
    const next = { ...all[key], ...patch };
    if (JSON.stringify(all[key]) === JSON.stringify(next)) return false;
    void this.memento.update(ERAS_KEY, { ...all, [key]: next });
    return true;
  }

  private all(): Record<string, Remembered> {
    return this.memento.get<Record<string, Remembered>>(ERAS_KEY) ?? {};
  }
}

/** A server's identity for what is remembered: how it is reached, not where it is defined. */
export function definitionKey(entry: ServerEntry): string {
  const { name, type, command, args, url, era } = entry.def;
  return createHash('sha256')
    .update(JSON.stringify([name, type, command, args, url, era]))
    .digest('hex')
    .slice(0, 16);
}
