/**
 * The signal that a round waits for the person, for when its panel is a background tab or in another
 * editor group: a status bar item "$(bell-dot) ‹server› waits for you" (a count when several) whose
 * click brings the panel forward (**Show Waiting Round**, a pick when several wait), a mark on the
 * server in the Servers view, and a notification when a round arrives while its panel is hidden and
 * the window is not focused (the person is elsewhere; a focused window has the status bar in sight).
 *
 * The round panels (`roundPanels.ts`) say when an input starts waiting and when a call ends; whether
 * a call still waits is asked of its panel (`CallPanel.pending`) once each answer settles.
 */
import * as vscode from 'vscode';
import { oneLine } from '../../core/util/shownText';

/** The status bar item's id (`createStatusBarItem`). */
export const WAITING_ITEM_ID = 'mcpRoundtrip.waiting';
/** The command that brings a waiting round's panel forward. */
export const SHOW_WAITING_ROUND = 'mcpRoundtrip.showWaitingRound';
/** The button of the notification. */
export const SHOW_ROUND = vscode.l10n.t('Show Round');

/** A call whose panel may wait for the person, as the signal sees it. */
export interface WaitingFlow {
  readonly flowId: number;
  /** True while some input of the call waits for the person. */
  readonly pending: boolean;
  /** True when its panel is on screen (in front in its editor group). */
  readonly visible: boolean;
  /** Bring its panel forward (and focus it). */
  reveal(): void;
}

/** What is known of a waiting call beyond its panel. */
interface Waiting {
  flow: WaitingFlow;
  server: string;
  target: string;
  round: number;
}

/**
 * The status bar text for the servers whose rounds wait, oldest first: `$(bell-dot) demo waits for
 * you`, or with a count when several rounds wait (`$(bell-dot) demo waits for you (+2)`); empty when none.
 */
export function waitingText(servers: readonly string[]): string {
  if (!servers.length) return '';
  const more = servers.length - 1;
  return `$(bell-dot) ${vscode.l10n.t('{0} waits for you', oneLine(servers[0], 60))}${more ? ` (+${more})` : ''}`;
}

/** The rounds that wait for the person, and the signals that say so. */
export class WaitingRounds implements vscode.Disposable {
  private readonly waiting = new Map<number, Waiting>();
  private readonly item: vscode.StatusBarItem;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the set of waiting servers changes (the Servers view marks them). */
  readonly onDidChange = this.changed.event;

  constructor() {
    this.item = vscode.window.createStatusBarItem(WAITING_ITEM_ID, vscode.StatusBarAlignment.Left, 100);
    this.item.name = vscode.l10n.t('MCP Roundtrip: Waiting Round');
    this.item.command = SHOW_WAITING_ROUND;
  }

  /**
   * An input of `flow` started waiting (its panel is already rendered). A round that was not waiting
   * yet is announced by a notification when its panel is hidden and the window is not focused.
   * @param answered settles when the input is answered (or withdrawn)
   */
  asked(flow: WaitingFlow, round: { server: string; target: string; round: number }, answered: Promise<unknown>): void {
    const known = this.waiting.get(flow.flowId);
    const newRound = !known || known.round !== round.round;
    this.waiting.set(flow.flowId, { flow, server: round.server, target: round.target, round: round.round });
    this.update();
    if (newRound && !flow.visible && !vscode.window.state.focused) {
      void vscode.window
        .showInformationMessage(
          vscode.l10n.t('{0} waits for your answer ({1}, round {2}).', oneLine(round.server, 60), oneLine(round.target, 80), round.round),
          SHOW_ROUND,
        )
        .then((choice) => choice === SHOW_ROUND && this.waiting.get(flow.flowId)?.flow.reveal());
    }
    const settled = () => {
      if (!flow.pending && this.waiting.get(flow.flowId)?.flow === flow) this.ended(flow.flowId);
    };
    answered.then(settled, settled);
  }

  /** Flow `flowId` no longer waits (its call ended). */
  ended(flowId: number): void {
    if (this.waiting.delete(flowId)) this.update();
  }

  /** The servers whose rounds wait, oldest first (a server once per waiting call). */
  servers(): string[] {
    return [...this.waiting.values()].map((w) => w.server);
  }

  /** Whether a round of `server` waits. */
  waits(server: string): boolean {
    return [...this.waiting.values()].some((w) => w.server === server);
  }

  /**
   * **Show Waiting Round**: bring the waiting round's panel forward; when several wait, the person
   * picks one; when none does, say so.
   */
  async show(): Promise<void> {
    const all = [...this.waiting.values()];
    if (!all.length) return void vscode.window.showInformationMessage(vscode.l10n.t('No round waits for you.'));
    const chosen =
      all.length === 1
        ? all[0]
        : (
            await vscode.window.showQuickPick(
              all.map((w) => ({
                label: oneLine(w.server, 60),
                description: vscode.l10n.t('{0}, round {1}', oneLine(w.target, 80), w.round),
                w,
              })),
              { placeHolder: vscode.l10n.t('Which round do you want to answer?') },
            )
          )?.w;
    // It may have been answered or withdrawn while the pick was open.
    if (chosen && this.waiting.get(chosen.flow.flowId) === chosen) chosen.flow.reveal();
  }

  private update(): void {
    const servers = this.servers();
    if (!servers.length) {
      this.item.hide();
    } else {
      this.item.text = waitingText(servers);
      this.item.tooltip = [...this.waiting.values()]
        .map((w) => vscode.l10n.t('{0} waits for your answer: {1}, round {2}', oneLine(w.server, 60), oneLine(w.target, 80), w.round))
        .join('\n');
      this.item.accessibilityInformation = { label: vscode.l10n.t('{0} MCP round(s) wait for your answer', servers.length) };
      this.item.show();
    }
    this.changed.fire();
  }

  dispose(): void {
    this.item.dispose();
    this.changed.dispose();
    this.waiting.clear();
  }
}
