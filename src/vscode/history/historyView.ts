/**
 * The Call History view (in the MCP Roundtrip view container): the most recent calls, newest first;
 * each expands to its arguments and its rounds, a round to its inputs (what was asked: kind, key,
 * the form's fields, the model hints; how it was answered: action, fields, by whom, after how
 * long), a form input to its fields. Clicking a call opens its result again. All text is plain
 * (`TreeItem` labels never render Markdown; tooltips are set with `appendText`).
 */
import * as vscode from 'vscode';
import type { CallOrigin, CallRecord, InputRecord, RoundRecord } from '../../core/history/callRecord';
import { formatMs } from '../../core/log/traceLog';
import { oneLine } from '../../core/util/shownText';
import type { WorkspaceHistory } from './workspaceHistory';

/** A node of the history tree. */
export type HistoryNode =
  | { kind: 'call'; record: CallRecord }
  | { kind: 'detail'; text: string; tooltip?: string; icon: string }
  | { kind: 'round'; record: CallRecord; round: RoundRecord }
  | { kind: 'input'; input: InputRecord };

const KIND = {
  'elicitation/create': vscode.l10n.t('form'),
  'sampling/createMessage': vscode.l10n.t('sampling'),
  'roots/list': vscode.l10n.t('roots'),
} as const;
const STATUS = {
  complete: vscode.l10n.t('complete'),
  toolError: vscode.l10n.t('tool error'),
  error: vscode.l10n.t('failed'),
  cancelled: vscode.l10n.t('cancelled'),
} as const;
/** `1 round`, `3 rounds`; `1 field`, `8 fields`. */
const rounds = (n: number) => (n === 1 ? vscode.l10n.t('1 round') : vscode.l10n.t('{0} rounds', n));
const fields = (n: number) => (n === 1 ? vscode.l10n.t('1 field') : vscode.l10n.t('{0} fields', n));
const ICON = { complete: 'pass', toolError: 'warning', error: 'error', cancelled: 'circle-slash' } as const;

/** What one input asked, in a few words: `form booking: 8 fields`, `sampling itinerary (hints sonnet)`. */
export function askedText(i: InputRecord): string {
  const kind = i.method === 'elicitation/create' && i.mode === 'url' ? 'URL' : KIND[i.method];
  const what = i.fields
    ? `: ${fields(i.fields.length)}`
    : i.urlHost
      ? ` (${i.urlHost})`
      : i.modelHints?.length
        ? ` (${vscode.l10n.t('hints {0}', i.modelHints.join(', '))})`
        : '';
  return `${kind} ${oneLine(i.key, 80)}${what}`;
}

/** How one input was answered: `accept [date, email] by you after 8.1 s`. */
export function answerText(i: InputRecord): string {
  const a = i.answer;
  if (!a) return vscode.l10n.t('not answered');
  const given = a.fields ? ` [${a.fields.map((f) => oneLine(f, 60)).join(', ')}]` : '';
  const model = a.model ? ` ${vscode.l10n.t('model {0}', a.model)}${a.stopReason ? `, ${a.stopReason}` : ''}` : '';
  const roots = a.roots !== undefined ? ` ${vscode.l10n.t('{0} root(s)', a.roots)}` : '';
  return `${a.action}${given}${model}${roots} ${vscode.l10n.t('by {0} after {1}', a.by, formatMs(a.waitedMs))}`;
}

/** Where a call was asked, as the view says it (a call from a command says nothing: most calls are). */
export const ORIGIN: Record<CallOrigin, string> = {
  palette: '',
  chat: vscode.l10n.t('from @roundtrip'),
  bridge: vscode.l10n.t('from chat (bridge)'),
};

/** The line under a call: server, status, rounds, time, and where it was asked when that was chat. */
export function callDescription(r: CallRecord): string {
  const from = r.from ? ORIGIN[r.from] : '';
  const answering = vscode.l10n.t('{0} answering', formatMs(r.waitingMs));
  return `${r.server} · ${STATUS[r.status]} · ${rounds(r.rounds.length)} · ${formatMs(r.totalMs)} (${answering}) · ${new Date(r.startedAt).toLocaleTimeString()}${from ? ` · ${from}` : ''}`;
}

function fieldLines(i: InputRecord): HistoryNode[] {
  const given = new Set(i.answer?.fields ?? []);
  return (i.fields ?? []).map((f) => {
    const value =
      i.answer?.values && Object.prototype.hasOwnProperty.call(i.answer.values, f.key)
        ? ` = ${oneLine(JSON.stringify(i.answer.values[f.key]) ?? '', 200)}`
        : '';
    const state = f.secret
      ? given.has(f.key)
        ? vscode.l10n.t('answered (secret, not kept)')
        : vscode.l10n.t('secret')
      : given.has(f.key)
        ? `${vscode.l10n.t('answered')}${value}`
        : i.answer?.action === 'accept'
          ? vscode.l10n.t('left empty')
          : '';
    return {
      kind: 'detail',
      text: `${f.label} (${f.key}, ${f.type}${f.required ? `, ${vscode.l10n.t('required')}` : ''})${state ? `: ${state}` : ''}`,
      icon: f.secret ? 'lock' : given.has(f.key) ? 'check' : 'circle-outline',
    };
  });
}

/** The tree of the Call History view. */
export class HistoryView implements vscode.TreeDataProvider<HistoryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<HistoryNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly stop: () => void;

  constructor(private readonly history: WorkspaceHistory) {
    this.stop = history.store.onChange(() => this.changed.fire(undefined));
  }

  getTreeItem(node: HistoryNode): vscode.TreeItem {
    const C = vscode.TreeItemCollapsibleState;
    switch (node.kind) {
      case 'call': {
        const r = node.record;
        const t = new vscode.TreeItem(oneLine(r.target, 200), C.Collapsed);
        t.id = r.id;
        t.description = callDescription(r);
        t.iconPath = new vscode.ThemeIcon(ICON[r.status]);
        t.contextValue = 'mcpRoundtrip.historyCall';
        const tip = new vscode.MarkdownString();
        const from = r.from ? ORIGIN[r.from] : '';
        tip.appendText(
          `${vscode.l10n.t('{0} {1} on {2}', r.method, r.target, r.server)}${from ? ` (${from})` : ''}\n${STATUS[r.status]}${r.error ? `: ${r.error}` : ''}\n${vscode.l10n.t('history {0}', r.id)}`,
        );
        t.tooltip = tip;
        t.command = { command: 'mcpRoundtrip.history.open', title: vscode.l10n.t('Open Result'), arguments: [node] };
        return t;
      }
      case 'round': {
        const t = new vscode.TreeItem(vscode.l10n.t('Round {0}', node.round.round), node.round.inputs.length ? C.Expanded : C.None);
        t.description = node.round.inputs.length
          ? vscode.l10n.t('asked {0}', node.round.inputs.map(askedText).join('; '))
          : vscode.l10n.t('state only (the server asked for nothing)');
        t.iconPath = new vscode.ThemeIcon('debug-step-over');
        return t;
      }
      case 'input': {
        const t = new vscode.TreeItem(askedText(node.input), node.input.fields?.length ? C.Collapsed : C.None);
        t.description = answerText(node.input);
        t.tooltip = [node.input.message, answerText(node.input)].filter(Boolean).join('\n');
        t.iconPath = new vscode.ThemeIcon(
          node.input.method === 'elicitation/create' ? 'edit' : node.input.method === 'sampling/createMessage' ? 'sparkle' : 'root-folder',
        );
        return t;
      }
      case 'detail': {
        const t = new vscode.TreeItem(node.text);
        t.tooltip = node.tooltip ?? node.text;
        t.iconPath = new vscode.ThemeIcon(node.icon);
        return t;
      }
    }
  }

  getChildren(node?: HistoryNode): HistoryNode[] {
    if (!node) return this.history.store.list().map((record) => ({ kind: 'call', record }));
    if (node.kind === 'call') {
      const r = node.record;
      const out: HistoryNode[] = [];
      if (r.arguments)
        out.push({
          kind: 'detail',
          text: vscode.l10n.t('arguments {0}', oneLine(JSON.stringify(r.arguments), 300)),
          tooltip: JSON.stringify(r.arguments, null, 2).slice(0, 5000),
          icon: 'symbol-parameter',
        });
      if (r.omittedArguments?.length)
        out.push({ kind: 'detail', text: vscode.l10n.t('not kept (secret): {0}', r.omittedArguments.join(', ')), icon: 'lock' });
      if (r.error) out.push({ kind: 'detail', text: oneLine(r.error, 300), icon: 'error' });
      if (r.resultNote) out.push({ kind: 'detail', text: r.resultNote, icon: 'info' });
      out.push(...r.rounds.map((round) => ({ kind: 'round' as const, record: r, round })));
      if (r.roundsNotKept)
        out.push({ kind: 'detail', text: vscode.l10n.t('… and {0} more rounds, not kept', r.roundsNotKept), icon: 'info' });
      else if (!r.rounds.length) out.push({ kind: 'detail', text: vscode.l10n.t('no rounds: the server answered at once'), icon: 'check' });
      return out;
    }
    if (node.kind === 'round') {
      const more = node.round.inputsNotKept;
      const inputs: HistoryNode[] = node.round.inputs.map((input) => ({ kind: 'input', input }));
      return more ? [...inputs, { kind: 'detail', text: vscode.l10n.t('… and {0} more inputs, not kept', more), icon: 'info' }] : inputs;
    }
    if (node.kind === 'input') return fieldLines(node.input);
    return [];
  }

  dispose(): void {
    this.stop();
    this.changed.dispose();
  }
}
