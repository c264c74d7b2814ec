/**
 * Saved calls: named calls a team keeps in the workspace's `.vscode/mcp-calls.json`, run again from
 * VS Code (Run Saved Call…) or from the CLI (`mcp-roundtrip run <name>`). One format for both:
 *
 * ```jsonc
 * { "calls": {
 *     "<name>": { "server": "demo", "tool": "book_table",        // or "prompt": "<name>" or "resource": "<uri>"
 *                 "arguments": { "restaurant": "Chez Test" },     // tools and prompts
 *                 "answers": { "booking": { "action": "accept", "content": { ... } } } } } }  // optional, the CLI's --answers format
 * ```
 *
 * JSON with comments; a broken entry is reported with the file and the name, the others still load;
 * writing a call keeps the rest of the file (comments included) as it was.
 */
import { applyEdits, modify } from 'jsonc-parser';
import type { MrtrMethod } from '../inputs/inputProvider';
import { parseConfigJsonc } from '../util/jsonc';
import { isPlainObject } from '../util/json';
import type { CallRecord } from './callRecord';

/** Where a workspace keeps its saved calls, relative to the folder. */
export const SAVED_CALLS_FILE = '.vscode/mcp-calls.json';

/** Longest saved-calls file read (a larger one is refused with a message, not parsed). */
export const MAX_SAVED_CALLS_CHARS = 5_000_000;

/** One saved call, as read. */
export interface SavedCall {
  name: string;
  server: string;
  method: MrtrMethod;
  /** Tool or prompt name, or resource URI. */
  target: string;
  arguments?: Record<string, unknown>;
  /** Scripted answers by `inputRequests` key (the CLI's `--answers` format). */
  answers?: Record<string, unknown>;
  /** The file it came from. */
  location: string;
  /** The workspace folder whose file it is (VS Code), for the servers it may use without asking. */
  folder?: string;
}

/** The calls of one file and what is wrong in it (each message names the file). */
export interface ParsedSavedCalls {
  calls: SavedCall[];
  errors: string[];
}

const KINDS = [
  ['tool', 'tools/call'],
  ['prompt', 'prompts/get'],
  ['resource', 'resources/read'],
] as const;

/**
 * Read the text of a saved-calls file. Never throws.
 * @param location the file's path, for messages
 */
export function parseSavedCalls(text: string, location: string): ParsedSavedCalls {
  if (text.length > MAX_SAVED_CALLS_CHARS)
    return { calls: [], errors: [`${location}: the file is larger than ${MAX_SAVED_CALLS_CHARS} characters; not read`] };
  if (!text.trim()) return { calls: [], errors: [] };
  const parsed = parseConfigJsonc(text, location);
  if (!parsed.ok) return { calls: [], errors: [parsed.error] };
  const doc = parsed.value;
  if (doc === undefined) return { calls: [], errors: [] };
  if (!isPlainObject(doc) || (doc.calls !== undefined && !isPlainObject(doc.calls)))
    return { calls: [], errors: [`${location}: expected {"calls": {"<name>": {...}}}`] };
  const calls: SavedCall[] = [];
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(doc.calls ?? {})) {
    const bad = (why: string) => problems.push(`${location}: saved call "${name}" ${why}`);
    if (!name.trim()) {
      bad('needs a name');
      continue;
    }
    if (!isPlainObject(raw)) {
      bad('must be an object');
      continue;
    }
    if (typeof raw.server !== 'string' || !raw.server) {
      bad('needs a "server" (a server name)');
      continue;
    }
    const kinds = KINDS.filter(([k]) => raw[k] !== undefined);
    if (kinds.length !== 1 || typeof raw[kinds[0][0]] !== 'string' || !raw[kinds[0][0]]) {
      bad('needs exactly one of "tool", "prompt" or "resource" (a name or URI)');
      continue;
    }
    const [kind, method] = kinds[0];
    if (raw.arguments !== undefined && !isPlainObject(raw.arguments)) {
      bad('"arguments" must be an object');
      continue;
    }
    if (kind === 'resource' && raw.arguments !== undefined) {
      bad('a resource takes no "arguments"');
      continue;
    }
    if (kind === 'prompt' && raw.arguments && !Object.values(raw.arguments).every((v) => typeof v === 'string')) {
      bad('prompt arguments must be strings');
      continue;
    }
    if (raw.answers !== undefined && !isPlainObject(raw.answers)) {
      bad('"answers" must be an object keyed by inputRequests key');
      continue;
    }
    calls.push({
      name,
      server: raw.server,
      method,
      target: raw[kind] as string,
      ...(raw.arguments ? { arguments: raw.arguments } : {}),
      ...(raw.answers ? { answers: raw.answers } : {}),
      location,
    });
  }
  return { calls, errors: problems };
}

/** The request of a saved call: its method and params. */
export function savedCallRequest(call: Pick<SavedCall, 'method' | 'target' | 'arguments'>): {
  method: MrtrMethod;
  params: Record<string, unknown>;
} {
  if (call.method === 'resources/read') return { method: call.method, params: { uri: call.target } };
  return { method: call.method, params: { name: call.target, arguments: call.arguments ?? {} } };
}

/** The JSON of a saved call as written in the file (`name` is its key there). */
export function savedCallJson(call: Pick<SavedCall, 'server' | 'method' | 'target' | 'arguments' | 'answers'>): Record<string, unknown> {
  const kind = KINDS.find(([, m]) => m === call.method)![0];
  return {
    server: call.server,
    [kind]: call.target,
    ...(call.method !== 'resources/read' ? { arguments: call.arguments ?? {} } : {}),
    ...(call.answers && Object.keys(call.answers).length ? { answers: call.answers } : {}),
  };
}

/**
 * The file's text with `name` set to `json` (added, or replacing a call of that name); the rest of
 * the file is kept as written. A missing or empty file starts a new one.
 * @throws Error when the text is not a JSON object (a broken file is not overwritten)
 */
export function withSavedCall(text: string | undefined, name: string, json: Record<string, unknown>): string {
  const base = text && text.trim() ? text : '{\n  "calls": {}\n}\n';
  const parsed = parseConfigJsonc(base, SAVED_CALLS_FILE);
  const doc = parsed.ok ? parsed.value : undefined;
  if (!isPlainObject(doc) || (doc.calls !== undefined && !isPlainObject(doc.calls)))
    throw new Error(`${SAVED_CALLS_FILE} is not a valid saved-calls file; fix it (or remove it) first`);
  const edits = modify(base, ['calls', name], json, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } });
  const out = applyEdits(base, edits);
  return out.endsWith('\n') ? out : `${out}\n`;
}

/**
 * Scripted answers (the CLI's `--answers` format) from a history entry: its last answer per key.
 * Declines and cancels always; an accepted form only when its values were kept and none of its
 * fields is secret; URL consent, sampling and roots never (the one running the call answers them).
 * @returns the answers, and the keys that could not be scripted (they are asked when the call runs)
 */
export function answersFromRecord(record: CallRecord): { answers: Record<string, unknown>; unscripted: string[] } {
  const answers = new Map<string, unknown>();
  const unscripted = new Set<string>();
  for (const round of record.rounds) {
    for (const input of round.inputs) {
      const a = input.answer;
      if (input.method !== 'elicitation/create' || !a) continue;
      answers.delete(input.key);
      unscripted.delete(input.key);
      // A key kept cut is not the server's: an answer under it would answer nothing.
      if (input.keyCut) {
        unscripted.add(input.key);
        continue;
      }
      if (a.action === 'decline' || a.action === 'cancel') answers.set(input.key, { action: a.action });
      else if (
        a.action === 'accept' &&
        a.values &&
        !(input.fields ?? []).some((f) => f.secret && (a.fields ?? []).includes(f.key)) &&
        (a.fields ?? []).every((k) => Object.prototype.hasOwnProperty.call(a.values, k))
      )
        answers.set(input.key, { action: 'accept', content: a.values });
      else unscripted.add(input.key);
    }
  }
  return { answers: Object.fromEntries(answers), unscripted: [...unscripted] };
}
