/**
 * Which language model answers a `sampling/createMessage` request (pure; no `vscode`): first what
 * the request needs (a model that cannot do it is never chosen, `modelNeeds.ts`), then what the
 * server prefers, then the user's default.
 *
 * Spec: MCP 2026-07-28, Sampling, "Model preferences": `hints[].name` are substrings evaluated in
 * order (first match wins) and take precedence over the numeric priorities, which may still pick
 * among ambiguous matches. The user's allow-list (`mcpRoundtrip.sampling.allowedModels`) bounds
 * everything: a hint never selects a model the user did not allow. See docs/field-cases.md, F6.
 */
import type { ModelPreferences } from '@modelcontextprotocol/client';
import { unableReason, type ModelInfo, type RequestNeeds } from './modelNeeds';

/** How the model was chosen, for the log and the review card; `none` when no model can answer. */
export type ChoiceReason = 'hint' | 'priorities' | 'default' | 'first' | 'none';

/** The outcome of {@link chooseModel}. */
export interface ModelChoiceResult<T extends ModelInfo> {
  /** The chosen model (one of `candidates`); absent when no allowed model can do the request. */
  model?: T;
  /**
   * Every allowed model: those that can do the request first (the chosen one, then the others ranked
   * by the request's priorities), then those that cannot, in `available` order.
   */
  candidates: T[];
  /** Why each allowed model that cannot do the request cannot ({@link unableReason}), by model id. */
  unable: Map<string, string>;
  reason: ChoiceReason;
  /** The hint that selected the model, when `reason === 'hint'`. */
  hint?: string;
  /** Hints that named only models outside the allow-list (so were ignored), for the log. */
  blockedHints: string[];
  /** Hints that named only allowed models that cannot do the request (so were passed over), for the log. */
  unableHints: string[];
  /**
   * Why no model answers, when `model` is absent: none available, none allowed, or none able (naming
   * what the request needs and why each allowed model cannot), to show before anything is sent.
   */
  noModel?: string;
}

/** Options of {@link chooseModel}. */
export interface ChooseModelOptions {
  /**
   * `mcpRoundtrip.sampling.allowedModels`: model ids or families (case-insensitive, exact). Empty or
   * absent: every available model is allowed.
   */
  allowList?: readonly string[];
  /**
   * The user's default (`mcpRoundtrip.sampling.defaultModel`): a model id or family (case-insensitive,
   * exact). Used when neither the hints nor the priorities decide. Ignored when it names no able model.
   */
  defaultModel?: string;
  /** What the request needs ({@link requestNeeds}); absent: any model can do it. */
  needs?: RequestNeeds;
  /** The prompt's size in each model's tokens, by model id, where measured (`measurePrompt`). */
  promptTokens?: ReadonlyMap<string, number>;
}

const lc = (s: string | undefined) => (s ?? '').toLowerCase();

/**
 * True when `model` is allowed by `allowList` (an entry equals its id or its family, ignoring case).
 * An empty or absent list allows every model.
 */
export function isAllowed(model: ModelInfo, allowList: readonly string[] | undefined): boolean {
  const entries = (allowList ?? []).map((e) => lc(e).trim()).filter(Boolean);
  if (!entries.length) return true;
  return entries.includes(lc(model.id)) || entries.includes(lc(model.family));
}

/** True when `hint` (non-empty) is a case-insensitive substring of the model's id, family or name (spec: ModelHint.name). */
export function hintMatches(model: ModelInfo, hint: string): boolean {
  const h = lc(hint).trim();
  return !!h && [model.id, model.family, model.name].some((s) => lc(s).includes(h));
}

/** Size class of a model, guessed from its id, family and name. */
export type ModelTier = 'small' | 'medium' | 'large';

// The stable LM API tells neither price nor latency, so the size class is read from the naming
// conventions every vendor uses for its smaller / larger variants. "small" wins over "large" so that
// e.g. `o3-mini` counts as small.
const SMALL = /(^|[^a-z0-9])(flash|mini|nano|haiku|lite|small|fast|instant|tiny|micro|[1-9]b)([^a-z0-9]|$)/;
const LARGE = /(^|[^a-z0-9])(opus|ultra|large|max|pro|o1|o3|reasoning|thinking|[1-9][0-9]{1,2}b)([^a-z0-9]|$)/;

/**
 * The size class of a model from its names: `small` (flash, mini, nano, haiku, lite, ...), `large`
 * (opus, ultra, pro, max, o1/o3, reasoning, thinking, ...), otherwise `medium` (sonnet, gpt-4.1, ...).
 */
export function modelTier(model: ModelInfo): ModelTier {
  const text = `${lc(model.id)} ${lc(model.family)} ${lc(model.name)}`;
  if (SMALL.test(text)) return 'small';
  if (LARGE.test(text)) return 'large';
  return 'medium';
}

const clamp01 = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);

/** True when the request gives any non-zero cost, speed or intelligence priority. */
export function hasPriorities(prefs: ModelPreferences | undefined): boolean {
  return [prefs?.costPriority, prefs?.speedPriority, prefs?.intelligencePriority].some((p) => clamp01(p) > 0);
}

interface Scored<T> {
  m: T;
  i: number;
  score: number;
  tie: number;
}

// Scores are sums of a few decimals: compare with a tolerance so float noise never reorders equals.
const EPS = 1e-9;
const compare = <T>(a: Scored<T>, b: Scored<T>) =>
  Math.abs(b.score - a.score) > EPS ? b.score - a.score : Math.abs(b.tie - a.tie) > EPS ? b.tie - a.tie : 0;

function score<T extends ModelInfo>(models: readonly T[], prefs: ModelPreferences | undefined): Scored<T>[] {
  const cost = clamp01(prefs?.costPriority);
  const speed = clamp01(prefs?.speedPriority);
  const intelligence = clamp01(prefs?.intelligencePriority);
  const maxCtx = Math.max(0, ...models.map((m) => m.maxInputTokens ?? 0));
  return models.map((m, i) => {
    const smart = { small: 0, medium: 0.5, large: 1 }[modelTier(m)];
    const ctx = maxCtx > 0 ? (m.maxInputTokens ?? 0) / maxCtx : 0;
    return {
      m,
      i,
      score: cost * (1 - smart) + speed * (1 - smart) + intelligence * smart,
      tie: ctx * (intelligence - Math.max(cost, speed)),
    };
  });
}

/**
 * Rank models by the request's `costPriority`, `speedPriority` and `intelligencePriority` (each 0..1,
 * absent = 0), best first; the sort is stable, so equal models keep their order, and with no
 * priority the order is unchanged.
 *
 * Heuristic (the stable LM API exposes only names and `maxInputTokens`):
 * - size class from {@link modelTier}: small = cheap and fast, large = capable but slow and costly;
 *   `smart` = 0 / 0.5 / 1 for small / medium / large, `cheap` = `fast` = 1 − `smart`;
 *   score = cost·cheap + speed·fast + intelligence·smart;
 * - equal scores: a larger `maxInputTokens` (relative to the largest model ranked) counts as more
 *   capable, weighted by intelligence − max(cost, speed), so it only decides between equals.
 */
export function rankByPriorities<T extends ModelInfo>(models: readonly T[], prefs: ModelPreferences | undefined): T[] {
  return score(models, prefs)
    .sort((a, b) => compare(a, b) || a.i - b.i)
    .map((s) => s.m);
}

/**
 * The best of `models` by the request's priorities: among those of the top score, the user's default
 * when it is one of them, else the first by the tie-break of {@link rankByPriorities}.
 */
function best<T extends ModelInfo>(models: readonly T[], prefs: ModelPreferences | undefined, isDefault: (m: ModelInfo) => boolean): T {
  const scored = score(models, prefs).sort((a, b) => compare(a, b) || a.i - b.i);
  const top = scored.filter((s) => Math.abs(s.score - scored[0].score) <= EPS).map((s) => s.m);
  return top.find(isDefault) ?? top[0];
}

/** At most this many models are named in the "no model can" message; the rest are counted. */
const MAX_NAMED = 8;

/** What the request needs that makes models unable, named: "tool calling", "image input", ... */
function missingCapabilities(reasons: readonly string[]): string[] {
  const names: Record<string, string> = {
    'no tool calling': 'tool calling (it offers tools)',
    'no image input': 'image input (it holds images)',
    'no audio input': 'audio input (it holds audio)',
  };
  const out = new Set<string>();
  for (const r of reasons) out.add(names[r] ?? 'a longer input limit (the prompt is too long)');
  return [...out];
}

/** The message of {@link ModelChoiceResult.noModel} for allowed models that all cannot do the request. */
function noneAbleMessage(allowed: readonly ModelInfo[], unable: ReadonlyMap<string, string>): string {
  const named = allowed.slice(0, MAX_NAMED).map((m) => `${m.name || m.id}: ${unable.get(m.id)}`);
  const more = allowed.length > MAX_NAMED ? `, and ${allowed.length - MAX_NAMED} more` : '';
  return `No allowed language model can do this request, which needs ${missingCapabilities([...unable.values()]).join(' and ')}. ${named.join('; ')}${more}.`;
}

/**
 * Choose the model for one sampling request (docs/field-cases.md, F6).
 *
 * 1. Allowed: `available` filtered by the allow-list ({@link isAllowed}), in `available` order.
 * 2. Able: the allowed models that can do the request ({@link unableReason} with `needs` and
 *    `promptTokens`). A model that cannot is never chosen; it stays in `candidates`, last, with its
 *    reason in `unable`. No able model: no `model`, and `noModel` says why.
 * 3. Hints, in order: the first hint whose name matches an able model ({@link hintMatches}) wins;
 *    when it matches several, the priorities pick, then the user's default, then the original
 *    order. Hints never widen the allow-list (a hint that matches only models outside it is skipped
 *    and reported in `blockedHints`; one matching only unable models, in `unableHints`).
 * 4. No hint matched, and the request gives priorities: the best by priorities ({@link rankByPriorities});
 *    among equal scores the user's default.
 * 5. Otherwise the user's default (`defaultModel`) when able, else the first able model.
 *
 * @param available every model VS Code offers (`vscode.lm.selectChatModels()`), in its order
 * @returns the choice; never throws (no model available, none allowed or none able is a `noModel`)
 */
export function chooseModel<T extends ModelInfo>(
  available: readonly T[],
  prefs: ModelPreferences | undefined,
  options: ChooseModelOptions = {},
): ModelChoiceResult<T> {
  const allowed = available.filter((m) => isAllowed(m, options.allowList));
  const unable = new Map<string, string>();
  for (const m of allowed) {
    const why = options.needs ? unableReason(m, options.needs, options.promptTokens?.get(m.id)) : undefined;
    if (why !== undefined) unable.set(m.id, why);
  }
  const able = allowed.filter((m) => !unable.has(m.id));
  const blockedHints: string[] = [];
  const unableHints: string[] = [];
  const none = (noModel: string): ModelChoiceResult<T> => ({
    candidates: allowed,
    unable,
    reason: 'none',
    blockedHints,
    unableHints,
    noModel,
  });
  if (!available.length)
    return none('No language model is available in VS Code (install or sign in to a model provider, e.g. GitHub Copilot).');
  if (!allowed.length) {
    return none(
      `None of the ${available.length} available language model(s) is allowed for sampling by mcpRoundtrip.sampling.allowedModels (${(options.allowList ?? []).join(', ')}); available: ${available
        .slice(0, MAX_NAMED)
        .map((m) => m.id)
        .join(', ')}${available.length > MAX_NAMED ? ', …' : ''}.`,
    );
  }
  if (!able.length) return none(noneAbleMessage(allowed, unable));

  const wanted = lc(options.defaultModel).trim();
  const isDefault = (m: ModelInfo) => !!wanted && (lc(m.id) === wanted || lc(m.family) === wanted);
  const ranked = rankByPriorities(able, prefs);
  const result = (model: T, reason: ChoiceReason, hint?: string): ModelChoiceResult<T> => ({
    model,
    candidates: [model, ...ranked.filter((m) => m !== model), ...allowed.filter((m) => unable.has(m.id))],
    unable,
    reason,
    ...(hint !== undefined ? { hint } : {}),
    blockedHints,
    unableHints,
  });

  for (const h of prefs?.hints ?? []) {
    const name = typeof h?.name === 'string' ? h.name : '';
    if (!name.trim()) continue; // an empty name would match every model
    const matches = able.filter((m) => hintMatches(m, name));
    if (matches.length) return result(best(matches, prefs, isDefault), 'hint', name);
    if (allowed.some((m) => hintMatches(m, name))) unableHints.push(name);
    else if (available.some((m) => hintMatches(m, name))) blockedHints.push(name);
  }
  if (hasPriorities(prefs)) return result(best(able, prefs, isDefault), 'priorities');
  const byDefault = able.find(isDefault);
  if (byDefault) return result(byDefault, 'default');
  return result(able[0], 'first');
}

/** The priorities of a request as text: "cost 0.3, speed 0.4, intelligence 0.8" (the non-zero ones). */
function prioritiesText(prefs: ModelPreferences | undefined): string {
  const parts = [
    ['cost', prefs?.costPriority],
    ['speed', prefs?.speedPriority],
    ['intelligence', prefs?.intelligencePriority],
  ] as const;
  return parts
    .filter(([, v]) => clamp01(v) > 0)
    .map(([k, v]) => `${k} ${clamp01(v)}`)
    .join(', ');
}

/**
 * Why the model of `choice` was chosen, for the log and the review card: `hint "sonnet"`, `the
 * server's priorities (cost 0.3, speed 0.4)`, `your default model (mcpRoundtrip.sampling.defaultModel)`,
 * `the first model that can do the request`, or the `noModel` message.
 */
export function describeChoice(choice: ModelChoiceResult<ModelInfo>, prefs: ModelPreferences | undefined): string {
  const skipped = choice.unable.size ? ` (${choice.unable.size} allowed model(s) cannot do this request)` : '';
  switch (choice.reason) {
    case 'hint':
      return `hint "${choice.hint}"${skipped}`;
    case 'priorities':
      return `the server's priorities (${prioritiesText(prefs)})${skipped}`;
    case 'default':
      return `your default model (mcpRoundtrip.sampling.defaultModel)${skipped}`;
    case 'first':
      return `the first model that can do the request${skipped}`;
    case 'none':
      return choice.noModel ?? 'no model can do this request';
  }
}
