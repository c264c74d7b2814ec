/**
 * `structuredContent` as a foldable, highlighted JSON tree: the value is already parsed, so each
 * node is built from it directly (no text is tokenised and nothing goes through HTML): objects and
 * arrays are `<details>` (the first levels open), keys and values carry a class per JSON type that
 * the stylesheet colours with the theme's debug-token colours. Bounded: at most
 * {@link MAX_TREE_NODES} nodes and {@link MAX_TREE_STRING} characters per string; "Open raw" has it all.
 */
import { shownText } from '../../../src/core/util/shownText';
import { el } from '../shared/dom';
import * as l10n from '../shared/l10n';

/** Most nodes drawn in one tree. */
export const MAX_TREE_NODES = 5_000;
/** Longest string drawn in full. */
export const MAX_TREE_STRING = 10_000;
/** Levels open at first. */
const OPEN_DEPTH = 2;

interface Budget {
  left: number;
}

function scalar(v: unknown): HTMLElement {
  if (typeof v === 'string') {
    return el('span', JSON.stringify(shownText(v, MAX_TREE_STRING)), 'json-string');
  }
  if (typeof v === 'number') return el('span', String(v), 'json-number');
  if (typeof v === 'boolean') return el('span', String(v), 'json-boolean');
  // l10n-exempt: JSON's null, as written in the document.
  return el('span', 'null', 'json-null');
}

function node(key: string | undefined, v: unknown, depth: number, budget: Budget): HTMLElement {
  budget.left--;
  const label = (e: HTMLElement) => {
    if (key !== undefined)
      e.append(el('span', JSON.stringify(shownText(key, MAX_TREE_STRING)), 'json-key'), el('span', ': ', 'json-punct'));
  };
  if (v === null || typeof v !== 'object') {
    const row = el('div', undefined, 'json-row');
    label(row);
    row.append(scalar(v));
    return row;
  }
  const isArray = Array.isArray(v);
  const entries: [string | undefined, unknown][] = isArray
    ? (v as unknown[]).map((x) => [undefined, x])
    : Object.entries(v as Record<string, unknown>);
  const details = el('details', undefined, 'json-node');
  details.open = depth < OPEN_DEPTH;
  const summary = el('summary');
  label(summary);
  summary.append(
    el(
      'span',
      isArray
        ? `[ ${entries.length === 1 ? l10n.t('1 item') : l10n.t('{0} items', entries.length)} ]`
        : `{ ${entries.length === 1 ? l10n.t('1 key') : l10n.t('{0} keys', entries.length)} }`,
      'json-punct',
    ),
  );
  details.append(summary);
  const body = el('div', undefined, 'json-children');
  let shown = 0;
  for (const [k, x] of entries) {
    if (budget.left <= 0) break;
    body.append(node(k, x, depth + 1, budget));
    shown++;
  }
  if (shown < entries.length) body.append(el('div', l10n.t('… {0} more (use Open raw)', entries.length - shown), 'muted'));
  details.append(body);
  return details;
}

/** The tree of `value` (any JSON value). */
export function jsonTree(value: unknown): HTMLElement {
  const root = el('div', undefined, 'json-tree');
  root.setAttribute('role', 'tree');
  root.append(node(undefined, value, 0, { left: MAX_TREE_NODES }));
  return root;
}
