/**
 * The host's check of every message the round panel's webview sends (shape, types, sizes): only the
 * extension runs it, so the webview bundle does not carry it. What passes is a {@link FromWebview}.
 */
import type { RawFormValue, RawFormValues } from '../../core/elicitation/formModel';
import { isPlainObject } from '../../core/util/json';
import { MAX_COMPLETE_CONTEXT, MAX_COMPLETE_TEXT, type FromWebview, type MessageEdit, type UnfocusedMessage } from './protocol';

/** Longest string accepted from the webview (a pasted document fits; a runaway page does not). */
export const MAX_TEXT = 1_000_000;
/** Most entries in any list or map accepted from the webview. */
export const MAX_ENTRIES = 1_000;

/** Outcome of {@link parseWebviewMessage}: the message, or why it was refused. */
export type ParsedMessage = { ok: true; message: FromWebview } | { ok: false; reason: string };

function isText(v: unknown): v is string {
  return typeof v === 'string' && v.length <= MAX_TEXT;
}

function isId(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= 100;
}

function isIndex(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

/**
 * A raw form value as the webview sends it: what an HTML control gives (text, a checkbox state, the
 * picked values of a multi-select as a short list of strings, or null for none), nothing else.
 */
export function isRawFormValue(v: unknown): v is RawFormValue {
  if (v === null || typeof v === 'boolean') return true;
  if (isText(v)) return true;
  return Array.isArray(v) && v.length <= MAX_ENTRIES && v.every(isText);
}

/** Raw values by field key (a plain object of {@link isRawFormValue} values, bounded in size). */
export function isRawFormValues(v: unknown): v is RawFormValues {
  if (!isPlainObject(v)) return false;
  const entries = Object.entries(v);
  return entries.length <= MAX_ENTRIES && entries.every(([k, x]) => k.length <= 1000 && isRawFormValue(x));
}

/** Only the listed keys (plus `type`) may appear: anything else means the sender is not our webview. */
function onlyKeys(m: Record<string, unknown>, keys: readonly string[]): boolean {
  return Object.keys(m).every((k) => k === 'type' || keys.includes(k));
}

/** The page's {@link UnfocusedMessage}: its type and nothing else (the webview host handles it, not the panel's model). */
export function isUnfocusedMessage(m: unknown): m is UnfocusedMessage {
  return isPlainObject(m) && m.type === 'unfocused' && onlyKeys(m, []);
}

function isShortText(v: unknown): v is string {
  return typeof v === 'string' && v.length <= MAX_COMPLETE_TEXT;
}

/** A `complete` message: a field key, its value, the other fields' values (strings, bounded), a sequence number. */
function parseComplete(m: Record<string, unknown>, bad: (what: string) => ParsedMessage): ParsedMessage {
  if (!onlyKeys(m, ['key', 'value', 'context', 'seq']) || !isId(m.key) || !isShortText(m.value) || !isIndex(m.seq))
    return bad('needs a key, a value and a seq');
  const context = m.context;
  if (!isPlainObject(context)) return bad('needs a context');
  const entries = Object.entries(context);
  if (entries.length > MAX_COMPLETE_CONTEXT || !entries.every(([k, v]) => isId(k) && isShortText(v))) return bad('malformed context');
  return {
    ok: true,
    message: { type: 'complete', key: m.key, value: m.value, context: context as Record<string, string>, seq: m.seq },
  };
}

/**
 * Checks a message received from the webview (type guard per message kind): known `type`, exactly
 * the expected keys with the expected types, bounded sizes ({@link MAX_TEXT}, {@link MAX_ENTRIES}).
 * @returns the typed message, or `{ok: false, reason}` to log at debug and otherwise ignore. Never throws.
 */
export function parseWebviewMessage(m: unknown): ParsedMessage {
  if (!isPlainObject(m)) return { ok: false, reason: 'not an object' };
  const type = m.type;
  const bad = (what: string): ParsedMessage => ({ ok: false, reason: `${String(type)}: ${what}` });
  switch (type) {
    case 'ready':
    case 'cancel':
      return onlyKeys(m, []) ? { ok: true, message: { type } } : bad('unexpected keys');
    case 'decline':
    case 'useForm':
    case 'openUrl':
    case 'retryUrl':
    case 'stop':
    case 'write':
    case 'back':
      if (!onlyKeys(m, ['id']) || !isId(m.id)) return bad('needs exactly an id');
      return { ok: true, message: { type, id: m.id } };
    case 'submit': {
      if (!onlyKeys(m, ['forms']) || !isPlainObject(m.forms)) return bad('needs forms');
      const forms = Object.entries(m.forms);
      if (forms.length > MAX_ENTRIES || !forms.every(([id, values]) => isId(id) && isRawFormValues(values))) return bad('malformed forms');
      return { ok: true, message: { type, forms: m.forms as Record<string, RawFormValues> } };
    }
    case 'appAnswer':
      if (!onlyKeys(m, ['id', 'result']) || !isId(m.id) || !isPlainObject(m.result) || JSON.stringify(m.result).length > MAX_TEXT)
        return bad('needs an id and a result object');
      return { ok: true, message: { type, id: m.id, result: m.result } };
    case 'appFailed':
      if (!onlyKeys(m, ['id', 'reason']) || !isId(m.id) || !isText(m.reason)) return bad('needs an id and a reason');
      return { ok: true, message: { type, id: m.id, reason: m.reason.slice(0, 500) } };
    case 'submitArgs':
      if (!onlyKeys(m, ['values']) || !isRawFormValues(m.values)) return bad('malformed values');
      return { ok: true, message: { type, values: m.values } };
    case 'complete':
      return parseComplete(m, bad);
    case 'approve': {
      if (!onlyKeys(m, ['id', 'modelId', 'systemPrompt', 'edits']) || !isId(m.id) || !isText(m.modelId) || !isText(m.systemPrompt))
        return bad('malformed approval');
      const edits = m.edits;
      if (!Array.isArray(edits) || edits.length > MAX_ENTRIES) return bad('malformed edits');
      for (const e of edits) {
        if (!isPlainObject(e) || !onlyKeys(e, ['message', 'block', 'text']) || !isIndex(e.message) || !isIndex(e.block) || !isText(e.text))
          return bad('malformed edit');
      }
      return { ok: true, message: { type, id: m.id, modelId: m.modelId, systemPrompt: m.systemPrompt, edits: edits as MessageEdit[] } };
    }
    case 'sendReply':
      if (!onlyKeys(m, ['id', 'values', 'args']) || !isId(m.id) || !isRawFormValues(m.values) || !isRawFormValues(m.args))
        return bad('malformed reply');
      return { ok: true, message: { type, id: m.id, values: m.values, args: m.args } };
    case 'send': {
      if (!onlyKeys(m, ['id', 'texts']) || !isId(m.id) || !Array.isArray(m.texts) || m.texts.length > MAX_ENTRIES || !m.texts.every(isText))
        return bad('malformed completion');
      return { ok: true, message: { type, id: m.id, texts: m.texts } };
    }
    default:
      return { ok: false, reason: `unknown type ${JSON.stringify(type)?.slice(0, 40)}` };
  }
}
