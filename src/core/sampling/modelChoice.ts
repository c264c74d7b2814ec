/**
 * Which language model answers a `sampling/createMessage` request (pure; no `vscode`).
 *
 * Spec: MCP 2026-07-28, Sampling, "Model preferences": `hints[].name` are substrings evaluated in
 * order (first match wins) and take precedence over the numeric priorities, which may still pick
 * among ambiguous matches. The user's allow-list (`mcpRoundtrip.sampling.allowedModels`) bounds
 * everything: a hint never selects a model the user did not allow. See docs/field-cases.md, F6.
 */
import type { ModelPreferences } from '@modelcontextprotocol/client';
import { HostError } from '../util/errors';

/**
 * What the host knows about one model: the stable fields of VS Code's `LanguageModelChat`
 * (`vscode.lm.selectChatModels()`); also what the review card lists to pick from.
 */
export interface ModelInfo {
  /** Opaque model id (the provider's id, e.g. `gpt-4.1` or `claude-sonnet-4`). Sent back as `result.model`. */
  id: string;
  /** Human-readable name. */
  name: string;
  /** Family, e.g. `claude-sonnet`, `gpt-4.1`, `gemini-flash`. */
  family: string;
  /** Vendor (the provider's id, e.g. `copilot`). */
  vendor: string;
  /** Maximum input tokens of one request, when known. */
  maxInputTokens?: number;
}

/** How the model was chosen, for the log and the review card. */
export type ChoiceReason = 'hint' | 'default' | 'priorities' | 'first';

/** The outcome of {@link chooseModel}. */
export interface ModelChoiceResult<T extends ModelInfo> {
  /** The chosen model (always one of `candidates`). */
  model: T;
  /** Every allowed model, best first: the chosen model, then the others ranked by the request's priorities. */
  candidates: T[];
  reason: ChoiceReason;
  /** The hint that selected the model, when `reason === 'hint'`. */
  hint?: string;
  /** Hints that named only models outside the allow-list (so were ignored), for the log. */
  blockedHints: string[];
}

/** Options of {@link chooseModel}. */
export interface ChooseModelOptions {
  /**
   * `mcpRoundtrip.sampling.allowedModels`: model ids or families (case-insensitive, exact). Empty or
   * absent: every available model is allowed.
   */
  allowList?: readonly string[];
  /**
   * The host default: a model id or family (case-insensitive, exact). Used when no hint matches an
   * allowed model. Ignored when it names no allowed model.
   */
  defaultModel?: string;
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
    return { m, i, score: cost * (1 - smart) + speed * (1 - smart) + intelligence * smart, tie: ctx * (intelligence - Math.max(cost, speed)) };
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
 * Choose the model for one sampling request (docs/field-cases.md, F6).
 *
 * 1. Candidates: `available` filtered by the allow-list ({@link isAllowed}), in `available` order.
 * 2. Hints, in order: the first hint whose name matches an allowed model ({@link hintMatches}) wins;
 *    when it matches several, the priorities pick ({@link rankByPriorities}), then the host default,
 *    then the original order. Hints never widen the allow-list (a hint that matches only models
 *    outside it is skipped and reported in `blockedHints`).
 * 3. No hint matched: the host default (`defaultModel`) when allowed — not an error.
 * 4. Otherwise: the best by priorities when the request gives any, else the first allowed model.
 *
 * @param available every model VS Code offers (`vscode.lm.selectChatModels()`), in its order
 * @throws HostError kind `declined` when no model is available, or none is allowed (the message says
 *   which, and names the setting); the sampling request ends there.
 */
export function chooseModel<T extends ModelInfo>(
  available: readonly T[],
  prefs: ModelPreferences | undefined,
  options: ChooseModelOptions = {},
): ModelChoiceResult<T> {
  if (!available.length) {
    throw new HostError('declined', 'No language model is available in VS Code for sampling (install or sign in to a model provider, e.g. GitHub Copilot).');
  }
  const allowed = available.filter((m) => isAllowed(m, options.allowList));
  if (!allowed.length) {
    throw new HostError(
      'declined',
      `None of the ${available.length} available language model(s) is allowed for sampling by mcpRoundtrip.sampling.allowedModels (${(options.allowList ?? []).join(', ')}); available: ${available.map((m) => m.id).join(', ')}.`,
    );
  }
  const wanted = lc(options.defaultModel).trim();
  const isDefault = (m: ModelInfo) => !!wanted && (lc(m.id) === wanted || lc(m.family) === wanted);
  const byDefault = allowed.find(isDefault);
  const ranked = rankByPriorities(allowed, prefs);
  const result = (model: T, reason: ChoiceReason, hint?: string, blockedHints: string[] = []): ModelChoiceResult<T> => ({
    model,
    candidates: [model, ...ranked.filter((m) => m !== model)],
    reason,
    ...(hint !== undefined ? { hint } : {}),
    blockedHints,
  });

  const blocked: string[] = [];
  for (const h of prefs?.hints ?? []) {
    const name = typeof h?.name === 'string' ? h.name : '';
    if (!name.trim()) continue; // an empty name would match every model
    const matches = allowed.filter((m) => hintMatches(m, name));
    if (matches.length) {
      // Several matches: the priorities pick; among equals the host default, then the original order.
      const scored = score(matches, prefs).sort((a, b) => compare(a, b) || a.i - b.i);
      const best = scored.filter((s) => compare(s, scored[0]) === 0).map((s) => s.m);
      return result(best.find(isDefault) ?? best[0], 'hint', name, blocked);
    }
    if (available.some((m) => hintMatches(m, name))) blocked.push(name);
  }
  if (byDefault) return result(byDefault, 'default', undefined, blocked);
  return result(ranked[0], hasPriorities(prefs) ? 'priorities' : 'first', undefined, blocked);
}
