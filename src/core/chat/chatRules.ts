/**
 * Lasting chat rules: what the person allowed `@roundtrip` to run without asking, per server, beyond
 * this window: a tool by name (**Always Allow This Tool**), or every tool of the server that says it
 * only reads (**Always Allow Read-Only Tools of This Server**: the tool's `annotations.readOnlyHint`).
 * Plain JSON, so it is stored as is; a stored value is read defensively (it may have been edited or
 * written by another version) and bounded.
 *
 * A rule only skips the question before a call: a call that needs input still asks for it in the
 * round panel. `readOnlyHint` is the server's word, not a guarantee, which the dialog says.
 *
 * Spec: MCP 2026-07-28 "Tools" (`ToolAnnotations.readOnlyHint`).
 */
import { isPlainObject } from '../util/json';

/** One server's rules. */
export interface ServerChatRules {
  /** Tools allowed by name, in the order they were allowed. */
  tools: string[];
  /** Every tool whose `annotations.readOnlyHint` is true is allowed. */
  readOnlyTools: boolean;
}

/** Every server's rules, by server name. */
export type ChatRules = Record<string, ServerChatRules>;

/** A rule the person gives in the consent dialog. */
export type ChatRule = { tool: string } | { readOnlyTools: true };

/** Servers with rules kept at most; tools allowed by name per server at most; longest name kept. */
export const MAX_RULE_SERVERS = 200;
export const MAX_RULE_TOOLS = 200;
export const MAX_RULE_NAME_CHARS = 200;

const okName = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_RULE_NAME_CHARS;
// A key that would set an object's prototype is never a server's.
const okServer = (v: unknown): v is string => okName(v) && v !== '__proto__';

/** The rules in a stored value: malformed entries left out, bounds applied; anything else reads as none. */
export function readChatRules(stored: unknown): ChatRules {
  const out: ChatRules = {};
  if (!isPlainObject(stored)) return out;
  for (const [server, v] of Object.entries(stored).slice(0, MAX_RULE_SERVERS)) {
    if (!okServer(server) || !isPlainObject(v)) continue;
    const tools = Array.isArray(v.tools) ? [...new Set(v.tools.filter(okName))].slice(0, MAX_RULE_TOOLS) : [];
    const readOnlyTools = v.readOnlyTools === true;
    if (tools.length || readOnlyTools) out[server] = { tools, readOnlyTools };
  }
  return out;
}

/**
 * Which rule lets `tool` of `server` run without asking, if one does.
 * @param readOnly whether the server marks the tool `readOnlyHint: true`
 */
export function allowingRule(rules: ChatRules, server: string, tool: string, readOnly: boolean): ChatRule | undefined {
  const r = Object.prototype.hasOwnProperty.call(rules, server) ? rules[server] : undefined;
  if (!r) return undefined;
  if (r.tools.includes(tool)) return { tool };
  if (readOnly && r.readOnlyTools) return { readOnlyTools: true };
  return undefined;
}

/**
 * `rules` with `rule` added for `server` (a new object; `rules` is not changed).
 * @throws Error when the server or tool name is empty or longer than {@link MAX_RULE_NAME_CHARS}, or the bounds are reached
 */
export function withChatRule(rules: ChatRules, server: string, rule: ChatRule): ChatRules {
  if (!okServer(server)) throw new Error(`a chat rule needs a server name of 1 to ${MAX_RULE_NAME_CHARS} characters (not __proto__)`);
  const known = Object.prototype.hasOwnProperty.call(rules, server);
  if (!known && Object.keys(rules).length >= MAX_RULE_SERVERS)
    throw new Error(`chat rules are kept for ${MAX_RULE_SERVERS} servers at most; reset the chat permissions first`);
  const current = known ? rules[server] : { tools: [], readOnlyTools: false };
  let next: ServerChatRules;
  if ('tool' in rule) {
    if (!okName(rule.tool)) throw new Error(`a chat rule needs a tool name of 1 to ${MAX_RULE_NAME_CHARS} characters`);
    if (current.tools.includes(rule.tool)) return rules;
    if (current.tools.length >= MAX_RULE_TOOLS)
      throw new Error(`${MAX_RULE_TOOLS} tools of ${server} are allowed already; reset its chat permissions first`);
    next = { ...current, tools: [...current.tools, rule.tool] };
  } else {
    next = { ...current, readOnlyTools: true };
  }
  return { ...rules, [server]: next };
}

/** `rules` without `server`'s (all of them when `server` is not given). */
export function withoutChatRules(rules: ChatRules, server?: string): ChatRules {
  if (server === undefined) return {};
  const out = { ...rules };
  delete out[server];
  return out;
}
