/**
 * Reads an MCP App's document out of a `resources/read` result, bounded, with the `_meta.ui` that says
 * what the app may reach (CSP domains), which browser permissions it asks for and how it likes to be
 * framed.
 *
 * Spec: MCP Apps extension (2026-01-26), "UI Resource": mime `text/html;profile=mcp-app`, the body in
 * `text` or a base64 `blob`, `_meta.ui` on the read content item (preferred) or on the `resources/list`
 * entry (fallback; hosts check both, the content item wins).
 */
import { MAX_APP_RESOURCE_BYTES } from '../limits';
import { HostError } from '../util/errors';
import { isPlainObject } from '../util/json';
import { APP_MIME_TYPE } from './appTool';

/** The domains an app declares it needs (`_meta.ui.csp`), each list as the server sent it, unsanitised. */
export interface AppCspDomains {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** The browser permissions an app may ask for (`_meta.ui.permissions`); each present key is a request. */
export type AppPermission = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite';

/** An app's document, ready for the sandbox. */
export interface AppDocument {
  /** The `ui://` URI it was read from. */
  uri: string;
  /** The full HTML document. */
  html: string;
  /** The declared domains (empty object when none: the spec's restrictive defaults apply). */
  csp: AppCspDomains;
  /** The permissions the app asks for (granted only as the person allows). */
  permissions: AppPermission[];
  /** The app's wish for a border around its frame, when it said. */
  prefersBorder?: boolean;
}

const PERMISSIONS: readonly AppPermission[] = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];
const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/**
 * The app document of `uri` in `result` (a `resources/read` result), with `_meta.ui` from the content
 * item, else from `listed` (the resource's `resources/list` entry, when the server listed it).
 * @throws HostError `protocol` when the result holds no content for `uri`, the content is not of mime
 *   `text/html;profile=mcp-app`, has neither `text` nor `blob`, or is bigger than
 *   {@link MAX_APP_RESOURCE_BYTES}; each message names the server's mistake
 */
export function appDocument(uri: string, result: unknown, listed?: unknown): AppDocument {
  const contents: unknown[] = isPlainObject(result) && Array.isArray(result.contents) ? (result.contents as unknown[]) : [];
  const item = contents.find((c) => isPlainObject(c) && c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!isPlainObject(item)) throw new HostError('protocol', `The server returned no content for the app resource ${uri}.`);
  const mime = typeof item.mimeType === 'string' ? item.mimeType.replace(/\s+/g, '').toLowerCase() : undefined;
  if (mime !== APP_MIME_TYPE)
    throw new HostError('protocol', `The app resource ${uri} has mime type ${mime ?? '(none)'}; an MCP App must be ${APP_MIME_TYPE}.`);
  const html = body(uri, item);
  const ui = uiMeta(item) ?? uiMeta(listed) ?? {};
  return {
    uri,
    html,
    csp: cspDomains(ui.csp),
    permissions: permissions(ui.permissions),
    ...(typeof ui.prefersBorder === 'boolean' ? { prefersBorder: ui.prefersBorder } : {}),
  };
}

/** The document's text: `text` as it is, or `blob` decoded from base64 as UTF-8; bounded before decoding. */
function body(uri: string, item: Record<string, unknown>): string {
  const tooBig = () =>
    new HostError('protocol', `The app resource ${uri} is bigger than ${MAX_APP_RESOURCE_BYTES} bytes; the host does not render it.`);
  if (typeof item.text === 'string') {
    // A UTF-8 byte is at least one UTF-16 unit and at most three: cheap checks first.
    if (item.text.length > MAX_APP_RESOURCE_BYTES || Buffer.byteLength(item.text, 'utf8') > MAX_APP_RESOURCE_BYTES) throw tooBig();
    return item.text;
  }
  if (typeof item.blob === 'string') {
    if (Math.floor((item.blob.length * 3) / 4) > MAX_APP_RESOURCE_BYTES + 2) throw tooBig();
    const bytes = Buffer.from(item.blob, 'base64');
    if (bytes.length > MAX_APP_RESOURCE_BYTES) throw tooBig();
    return bytes.toString('utf8');
  }
  throw new HostError('protocol', `The app resource ${uri} has neither text nor blob.`);
}

/** `_meta.ui` of a content item or listing entry, when it is an object. */
function uiMeta(v: unknown): Record<string, unknown> | undefined {
  return isPlainObject(v) && isPlainObject(v._meta) && isPlainObject(v._meta.ui) ? v._meta.ui : undefined;
}

/** The declared CSP lists: string entries only, at most 64 per list (sanitised later, when the CSP is built). */
function cspDomains(v: unknown): AppCspDomains {
  const out: AppCspDomains = {};
  if (!isPlainObject(v)) return out;
  for (const k of CSP_KEYS) {
    const list = v[k];
    if (Array.isArray(list)) out[k] = list.filter((d): d is string => typeof d === 'string').slice(0, 64);
  }
  return out;
}

/** The asked-for permissions among the four the spec names. */
function permissions(v: unknown): AppPermission[] {
  return isPlainObject(v) ? PERMISSIONS.filter((p) => isPlainObject(v[p])) : [];
}
