/**
 * The host's check of every message a server sends, where a transport reads it (a stdio line, an
 * HTTP body, a server-sent event), before the SDK sees it: nested no deeper than
 * {@link MAX_JSON_DEPTH}, and shaped as JSON-RPC 2.0. A message that fails is never dropped
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

const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);
const isId = (v: unknown): v is MessageId => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

/**
 * True when `value` nests objects and arrays deeper than `max` levels (the value itself is level 1).
 * Iterative: a hostile value cannot overflow the stack here.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length) {
    const v = stack.pop() as object;
    const d = depths.pop()!;
    if (d > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) {
        stack.push(child);
        depths.push(d + 1);
      }
    }
  }
  return false;
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
    if (m.result._meta !== undefined && !isPlainObject(m.result._meta)) return `its result._meta is ${kindOf(m.result._meta)}, not an object`;
    const key = extra(RESULT_KEYS);
    return key === undefined ? undefined : `it has a member "${key.slice(0, 40)}" that JSON-RPC does not define`;
  }
  if ('error' in m) {
    if (m.id !== undefined && !isId(m.id)) return `its id is ${kindOf(m.id)}, not a string or an integer`;
    const e = m.error;
    if (!isPlainObject(e)) return `its error is ${kindOf(e)}, not an object`;
    if (typeof e.code !== 'number' || !Number.isInteger(e.code)) return `its error code is ${typeof e.code === 'number' ? 'not an integer' : kindOf(e.code)}, not an integer`;
    if (typeof e.message !== 'string') return `its error message is ${kindOf(e.message)}, not a string`;
    const key = extra(ERROR_KEYS);
    return key === undefined ? undefined : `it has a member "${key.slice(0, 40)}" that JSON-RPC does not define`;
  }
  return 'it has neither a result, an error nor a method';
}

/**
 * Check one parsed message (not a batch).
 * @returns `{ok: true}`, or the reason it cannot be read and, when it is a response with a usable
 *   id, the id of the request it answered
 */
export function checkIncoming(value: unknown): IncomingCheck {
  if (!isPlainObject(value)) return { ok: false, reason: `it is ${kindOf(value)}, not a JSON-RPC message object` };
  const answers = !('method' in value) && isId(value.id) ? value.id : undefined;
  const why = nestedDeeperThan(value, MAX_JSON_DEPTH) ? `it is nested deeper than ${MAX_JSON_DEPTH} levels (MAX_JSON_DEPTH)` : fault(value);
  return why === undefined ? { ok: true } : { ok: false, reason: why, ...(answers !== undefined ? { answers } : {}) };
}

/**
 * The id a text that is not JSON claims to answer: the first `"id":` member of a response-looking
 * text (one without a `"method"`), read from its first 4 KiB; `undefined` when there is none.
 */
export function claimedAnswerId(text: string): MessageId | undefined {
  const head = text.slice(0, 4096);
  if (/"method"\s*:/.test(head)) return undefined;
  const m = /"id"\s*:\s*(-?\d+(?![.\deE])|"(?:[^"\\]|\\.){0,200}")/.exec(head);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]) as MessageId;
  } catch {
    return undefined;
  }
}

/** A stdio line read: the message, or why it cannot be read (and the request it answered, if known). */
export type ReadLine = { ok: true; message: JSONRPCMessage } | { ok: false; reason: string; answers?: MessageId };

/**
 * Parse and check one line of a stdio server (the SDK's own schema decides last, so the SDK never
 * sees what it would refuse).
 */
export function readMessageLine(text: string): ReadLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const answers = claimedAnswerId(text);
    return { ok: false, reason: 'it is not valid JSON', ...(answers !== undefined ? { answers } : {}) };
  }
  const check = checkIncoming(value);
  if (!check.ok) return check;
  try {
    return { ok: true, message: parseJSONRPCMessage(value) };
  } catch {
    /* the SDK's schema refuses what the check above let through: named below */
  }
  const id = (value as { id?: unknown }).id;
  return { ok: false, reason: 'it is not a valid JSON-RPC message', ...(!('method' in (value as object)) && isId(id) ? { answers: id } : {}) };
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
  return { jsonrpc: '2.0', id, error: { code: -32700, message: reason, data: { [MARK_KEY]: MARK } } } as JSONRPCMessage;
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
