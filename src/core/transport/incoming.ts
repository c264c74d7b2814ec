/**
 * The host's check of every message a server sends, where a transport reads it (a stdio line, an
 * HTTP body, a server-sent event), before the SDK sees it: nested no deeper than
 * {@link MAX_JSON_DEPTH} (read on the text, before it is parsed), and shaped as JSON-RPC 2.0. A message that fails is never dropped
 * silently: when it answers a request (it has an id and is not a request itself), the request fails
 * at once with an "unreadable answer" naming what was wrong, instead of waiting for its time limit.
 *
 * The unreadable answer travels the SDK's own path, as a JSON-RPC error response for that id,
 * marked with a value only this process knows, so the host tells it from any error a server sends.
 *
 * Spec: JSON-RPC 2.0 (request, notification, response objects); MCP 2026-07-28 "Base protocol".
 */
import { ProtocolError, parseJSONRPCMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { MAX_JSON_DEPTH } from '../limits';
import { isPlainObject } from '../util/json';

/** A JSON-RPC id. */
export type MessageId = string | number;

/** What a check found: the message, or why it cannot be read and which request it answered, if known. */
export type IncomingCheck = { ok: true } | { ok: false; reason: string; answers?: MessageId };

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const RESULT_KEYS = new Set(['jsonrpc', 'id', 'result']);
const ERROR_KEYS = new Set(['jsonrpc', 'id', 'error']);

const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
const isId = (v: unknown): v is MessageId => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

/** What {@link scanText} reads of a message's text without parsing it. */
export interface TextScan {
  /** The deepest nesting of objects and arrays (the outermost value is level 1). */
  depth: number;
  /** The top-level `id`, when it is a string or an integer written before the text ends. */
  id?: MessageId;
  /** True when the top level has a `method` member (a request or notification, not an answer). */
  method: boolean;
}

const NUMBER_AT = /-?\d+(?![.\deE])/y;

/**
 * Read a JSON text without parsing it: how deep it nests, and its top-level `id` and `method`. Linear,
 * allocation-free but for the top-level keys; strings are skipped whole (escapes respected). Works on
 * a text that is cut or not JSON at all (then it tells what the text claims).
 */
export function scanText(text: string): TextScan {
  const scan: TextScan = { depth: 0, method: false };
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      // The closing quote is the next one not escaped by an odd run of backslashes.
      for (;;) {
        const q = text.indexOf('"', i + 1);
        if (q < 0) return scan; // cut inside a string
        let slashes = 0;
        while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
        i = q;
        if (slashes % 2 === 0) break;
      }
      if (depth === 1 && i - start < 12) topLevelKey(text, start, i, scan);
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > scan.depth) scan.depth = depth;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return scan;
}

/** A short string at the top level, from `start` to `end` (its quotes): notes `method`, reads the value of `id`. */
function topLevelKey(text: string, start: number, end: number, scan: TextScan): void {
  let at = end + 1;
  while (text.charCodeAt(at) === 0x20 || text.charCodeAt(at) === 0x0a || text.charCodeAt(at) === 0x0d || text.charCodeAt(at) === 0x09) at++;
  if (text.charCodeAt(at) !== 0x3a) return; // a value, not a key
  const key = text.slice(start + 1, end);
  if (key === 'method') scan.method = true;
  if (key !== 'id' || scan.id !== undefined) return;
  do at++;
  while (text.charCodeAt(at) === 0x20);
  if (text.charCodeAt(at) === 0x22) {
    const close = text.indexOf('"', at + 1);
    if (close > at && close - at < 200 && !text.slice(at + 1, close).includes('\\')) scan.id = text.slice(at + 1, close);
    return;
  }
  NUMBER_AT.lastIndex = at;
  const n = NUMBER_AT.exec(text);
  if (n) scan.id = Number(n[0]);
}

/** The request a text claims to answer: its top-level id, unless it is a request itself. */
export function claimedAnswerId(text: string): MessageId | undefined {
  const scan = scanText(text);
  return scan.method ? undefined : scan.id;
}

/** A message text parsed: the value, or why it cannot be read (and the request it answered, if known). */
export type ParsedText = { ok: true; value: unknown } | { ok: false; reason: string; answers?: MessageId };

/** Parse one message's text, refusing it before parsing when it is nested deeper than {@link MAX_JSON_DEPTH}. */
export function parseIncoming(text: string): ParsedText {
  const scan = scanText(text);
  const refused = (reason: string): ParsedText =>
    scan.method || scan.id === undefined ? { ok: false, reason } : { ok: false, reason, answers: scan.id };
  if (scan.depth > MAX_JSON_DEPTH) return refused(`it is nested deeper than ${MAX_JSON_DEPTH} levels (MAX_JSON_DEPTH)`);
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return refused('it is not valid JSON');
  }
}

/** The fault of a parsed message as one sentence fragment, or `undefined` when it is JSON-RPC 2.0. */
function fault(m: Record<string, unknown>): string | undefined {
  if (m.jsonrpc !== '2.0') return `its "jsonrpc" member is ${JSON.stringify(m.jsonrpc) ?? 'missing'}, not "2.0"`;
  const extra = (allowed: Set<string>) => Object.keys(m).find((k) => !allowed.has(k));
  if ('method' in m) {
    if (typeof m.method !== 'string') return `its method is ${kindOf(m.method)}, not a string`;
    if ('id' in m && !isId(m.id)) return `its id is ${kindOf(m.id)}, not a string or an integer`;
    if (m.params !== undefined && !isPlainObject(m.params)) return `its params are ${kindOf(m.params)}, not an object`;
    const meta = (m.params as { _meta?: unknown } | undefined)?._meta;
    if (meta !== undefined && !isPlainObject(meta)) return `its params._meta is ${kindOf(meta)}, not an object`;
    const token = (meta as { progressToken?: unknown } | undefined)?.progressToken;
    if (token !== undefined && !isId(token)) return `its progressToken is ${kindOf(token)}, not a string or an integer`;
    const key = extra(REQUEST_KEYS);
    return key === undefined ? undefined : `it has a member "${key.slice(0, 40)}" that JSON-RPC does not define`;
  }
  if ('result' in m) {
    if (!isId(m.id)) return `its id is ${'id' in m ? kindOf(m.id) : 'missing'}, not a string or an integer`;
    if (!isPlainObject(m.result)) return `its result is ${kindOf(m.result)}, not an object`;
    if (m.result._meta !== undefined && !isPlainObject(m.result._meta))
      return `its result._meta is ${kindOf(m.result._meta)}, not an object`;
    const key = extra(RESULT_KEYS);
    return key === undefined ? undefined : `it has a member "${key.slice(0, 40)}" that JSON-RPC does not define`;
  }
  if ('error' in m) {
    if (m.id !== undefined && !isId(m.id)) return `its id is ${kindOf(m.id)}, not a string or an integer`;
    const e = m.error;
    if (!isPlainObject(e)) return `its error is ${kindOf(e)}, not an object`;
    if (typeof e.code !== 'number') return `its error code is ${kindOf(e.code)}, not a number`;
    if (!Number.isInteger(e.code)) return 'its error code is not an integer';
    if (typeof e.message !== 'string') return `its error message is ${kindOf(e.message)}, not a string`;
    const key = extra(ERROR_KEYS);
    return key === undefined ? undefined : `it has a member "${key.slice(0, 40)}" that JSON-RPC does not define`;
  }
  return 'it has neither a result, an error nor a method';
}

/**
 * Check the shape of one parsed message (not a batch; its depth was checked on its text, {@link parseIncoming}).
 * @returns `{ok: true}`, or the reason it cannot be read and, when it is a response with a usable
 *   id, the id of the request it answered
 */
export function checkIncoming(value: unknown): IncomingCheck {
  if (!isPlainObject(value)) return { ok: false, reason: `it is ${kindOf(value)}, not a JSON-RPC message object` };
  const answers = !('method' in value) && isId(value.id) ? value.id : undefined;
  const why = fault(value);
  return why === undefined ? { ok: true } : { ok: false, reason: why, ...(answers !== undefined ? { answers } : {}) };
}

/** A stdio line read: the message, or why it cannot be read (and the request it answered, if known). */
export type ReadLine = { ok: true; message: JSONRPCMessage } | { ok: false; reason: string; answers?: MessageId };

/**
 * Parse and check one line of a stdio server (the SDK's own schema decides last, so the SDK never
 * sees what it would refuse).
 */
export function readMessageLine(text: string): ReadLine {
  const parsed = parseIncoming(text);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  try {
    return { ok: true, message: parseJSONRPCMessage(value) };
  } catch {
    /* refused by the SDK's schema: what was wrong is named below */
  }
  const check = checkIncoming(value);
  if (!check.ok) return check;
  const id = (value as { id?: unknown }).id;
  return {
    ok: false,
    reason: 'it is not a valid JSON-RPC message',
    ...(!('method' in (value as object)) && isId(id) ? { answers: id } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Unreadable answers

const MARK_KEY = 'mcp-roundtrip/unreadable';
/** Known to this process only: a server cannot forge an unreadable answer. */
const MARK = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;

/**
 * The JSON-RPC error response standing for an answer the host could not read: it ends the request
 * `id` at once (the SDK settles it like any answer), and {@link unreadableReason} recognises it.
 * @param reason what was wrong, a sentence fragment (e.g. "its result is a string, not an object")
 */
export function unreadableAnswer(id: MessageId, reason: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code: -32700, message: reason, data: { [MARK_KEY]: MARK } } };
}

/** The reason of an unreadable answer the SDK turned into an error (from {@link unreadableAnswer}); `undefined` for anything else. */
export function unreadableReason(e: unknown): string | undefined {
  if (!(e instanceof ProtocolError)) return undefined;
  const data = (e as { data?: unknown }).data;
  return isPlainObject(data) && data[MARK_KEY] === MARK ? e.message : undefined;
}

/** True when a received error object is an unreadable answer (from {@link unreadableAnswer}). */
export function isUnreadableError(error: unknown): boolean {
  const data = isPlainObject(error) ? error.data : undefined;
  return isPlainObject(data) && data[MARK_KEY] === MARK;
}
