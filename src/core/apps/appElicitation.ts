/**
 * App-rendered elicitation (SEP-3118, an open proposal the MCP Inspector implements): a form-mode
 * `elicitation/create` in an MRTR round that names a `ui://` resource in `params._meta.ui.resourceUri`
 * is answered by that app instead of the native form, when both sides said so with the `elicitation`
 * flag inside the ui extension's capability. The app's answer is an ordinary `ElicitResult`, checked
 * here against the request's `requestedSchema` before it is sent; any failure means the native form.
 */
import type { ElicitResult } from '@modelcontextprotocol/client';
import { checkFormContent } from '../elicitation/formCheck';
import { isPlainObject } from '../util/json';
import { APPS_EXTENSION_ID, isAppUri } from './appTool';

/**
 * True when the server's capabilities say it sends app-rendered elicitations:
 * `extensions["io.modelcontextprotocol/ui"].elicitation` is an object (2026-07-28: from
 * `server/discover`; 2025: from `initialize`).
 */
export function serverOffersAppElicitation(serverCapabilities: unknown): boolean {
  if (!isPlainObject(serverCapabilities) || !isPlainObject(serverCapabilities.extensions)) return false;
  const ui = serverCapabilities.extensions[APPS_EXTENSION_ID];
  return isPlainObject(ui) && isPlainObject(ui.elicitation);
}

/**
 * The `ui://` resource that should render elicitation `params`, or `undefined` for a native form: only a
 * form-mode request (`mode` absent or `"form"`) whose `_meta.ui.resourceUri` is a `ui://` URI with a
 * non-empty host.
 */
export function elicitationAppUri(params: unknown): string | undefined {
  if (!isPlainObject(params) || (params.mode !== undefined && params.mode !== 'form')) return undefined;
  const meta = params._meta;
  const uri = isPlainObject(meta) && isPlainObject(meta.ui) ? meta.ui.resourceUri : undefined;
  if (!isAppUri(uri)) return undefined;
  const host = /^ui:\/\/([^/?#]+)/.exec(uri)?.[1];
  return host ? uri : undefined;
}

/** The app's answer, checked: the result to send, or why the native form must be shown instead. */
export type AppElicitOutcome = { ok: true; result: ElicitResult } | { ok: false; reason: string };

/**
 * Check what the app answered to `elicitation/create`: `action` one of accept, decline, cancel; an
 * accept's `content` valid against `requestedSchema` when the request has one (the same ajv check as
 * the native form's, `elicitation/formCheck.ts`). Decline and cancel carry no content. Never throws.
 */
export function checkAppElicitResult(answer: unknown, requestedSchema: unknown): AppElicitOutcome {
  if (!isPlainObject(answer)) return { ok: false, reason: 'the app answered with something that is not an object' };
  const { action } = answer;
  if (action === 'decline' || action === 'cancel') return { ok: true, result: { action } };
  if (action !== 'accept') return { ok: false, reason: `the app answered with action ${JSON.stringify(action)?.slice(0, 40)}` };
  const content = answer.content ?? {};
  if (requestedSchema !== undefined) {
    const errors = Object.entries(checkFormContent(requestedSchema, content));
    if (errors.length)
      return {
        ok: false,
        reason: `the app's answer does not match the requested schema: ${errors
          .slice(0, 5)
          .map(([k, m]) => (k ? `${k}: ${m}` : m))
          .join('; ')}`,
      };
  } else if (!isPlainObject(content)) return { ok: false, reason: "the app's content is not an object" };
  return { ok: true, result: { action: 'accept', content: content as ElicitResult['content'] } };
}
