/**
 * The gate every request of an app's view passes before the host acts on it: which tools it may call,
 * which links it may ask to open, and how much it may post. The host (VS Code) asks the person where
 * this says `ask`; nothing here talks to a person.
 *
 * Spec: MCP Apps extension (2026-01-26), "Host behaviour": reject `tools/call` to tools whose visibility
 * lacks `"app"` and to other servers; `ui/open-link` URLs validated by the host; anything forwarded
 * may be subject to the user's approval.
 */
import { APP_MESSAGE_WINDOW_MS, MAX_APP_MESSAGE_BYTES, MAX_APP_MESSAGES_PER_WINDOW } from '../limits';
import { isPlainObject } from '../util/json';
import { appMayCall, isReadOnlyTool } from './appTool';

/** What to do with an app's `tools/call`: refuse (with why), ask the person first, or call. */
export type AppToolVerdict =
  { kind: 'refuse'; reason: string } | { kind: 'ask'; tool: Record<string, unknown> } | { kind: 'allow'; tool: Record<string, unknown> };

/**
 * The verdict on an app's `tools/call` of `name`, among `tools` (its own server's listing; the app
 * reaches no other server). Unknown tools and tools not visible to apps are refused; a tool that does
 * not say it is read-only (`annotations.readOnlyHint: true`) is asked about, unless `allowedForApp`
 * holds its name (the person said "Allow for this App").
 */
export function appToolVerdict(tools: readonly unknown[], name: unknown, allowedForApp: ReadonlySet<string> = new Set()): AppToolVerdict {
  if (typeof name !== 'string' || !name) return { kind: 'refuse', reason: 'the app called a tool without a name' };
  const tool = tools.find((t): t is Record<string, unknown> => isPlainObject(t) && t.name === name);
  if (!tool) return { kind: 'refuse', reason: `the app's server has no tool ${name}` };
  if (!appMayCall(tool)) return { kind: 'refuse', reason: `the tool ${name} is not visible to apps (its _meta.ui.visibility lacks "app")` };
  if (isReadOnlyTool(tool) || allowedForApp.has(name)) return { kind: 'allow', tool };
  return { kind: 'ask', tool };
}

/**
 * The URL of an app's `ui/open-link` when it is one the host may offer to open (http or https, at most
 * 2048 characters), else `undefined`. Opening still waits for the person's consent.
 */
export function openableLink(url: unknown): URL | undefined {
  if (typeof url !== 'string' || url.length > 2048) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The bounds on what an app's view posts: each message at most {@link MAX_APP_MESSAGE_BYTES}, at most
 * {@link MAX_APP_MESSAGES_PER_WINDOW} per {@link APP_MESSAGE_WINDOW_MS}. The first breach stops the app
 * for good (a flood is not slowed down, it is ended), with the reason for the log.
 */
export class AppMessageBudget {
  private windowStart = -Infinity;
  private count = 0;
  private stoppedFor: string | undefined;

  constructor(
    private readonly maxPerWindow = MAX_APP_MESSAGES_PER_WINDOW,
    private readonly windowMs = APP_MESSAGE_WINDOW_MS,
    private readonly maxBytes = MAX_APP_MESSAGE_BYTES,
  ) {}

  /** Why the app was stopped, once it was. */
  get stopped(): string | undefined {
    return this.stoppedFor;
  }

  /**
   * Counts one message of `bytes` bytes posted at `now` (ms); `undefined` when it may pass, else the
   * reason the app is stopped (returned again for every later message).
   */
  admit(bytes: number, now: number): string | undefined {
    if (this.stoppedFor) return this.stoppedFor;
    if (bytes > this.maxBytes) return (this.stoppedFor = `the app posted a message of ${bytes} bytes (the limit is ${this.maxBytes})`);
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.count = 0;
    }
    if (++this.count > this.maxPerWindow)
      return (this.stoppedFor = `the app posted more than ${this.maxPerWindow} messages in ${this.windowMs} ms`);
    return undefined;
  }
}
