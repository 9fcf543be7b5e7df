// A card's notification: when a card that waits on the person arrives or comes back to them (from
// Later, taken back, returned by a `loop` helper), in the window they are at only. It says who asks
// and where, and for an approval or a small single choice it offers the answers as buttons: one
// press answers the version this notification showed, then the next notification offers Undo for
// the hold. Anything else offers Open. Which cards and which buttons: shared/notify-rules.ts.
// Never more than one card notification at a time: later arrivals while one shows are skipped, the
// tree and the status bar still count them. Blocking cards that arrive together (within a moment of
// the first, or while its notification shows) are told in it: how many more wait, and "Open Next". A toast hides by itself after a while but its promise
// stays open until dismissed, so "shows" ends at dismissal or after SHOWN_MS.
import * as vscode from 'vscode';
import type { Card, CardListEntry } from '../../api/schemas';
import type { ClientCore } from '../../sync';
import type { ContextKeys } from '../context-keys';
import { DisposableBase } from '../base/disposable';
import type { Log } from '../base/log';
import { say } from '../base/say';
import { hearsIn } from '../../shared/format';
import { thisComputer } from '../../words/this-computer';
import { answeredText, buttonSet, isReturn, notificationText, wantsNotification, withMoreWaiting, type AnswerButton, type NotifySetting } from '../../shared/notify-rules';
import { nextCard, type NextCard } from '../../shared/next-card';
import { NOTIFY_ORDER, ownValue } from '../../shared/own-setting';

/**
 * `assistantCards.notify` from the person's own settings: a folder's `.vscode/settings.json` may
 * make it louder, never quieter (an `off` there would silence blocking cards; shared/own-setting.ts).
 */
export function notifySettingNow(): NotifySetting {
  return ownValue(vscode.workspace.getConfiguration('assistantCards').inspect('notify'), NOTIFY_ORDER, 'blocking');
}
import { problemMessage, problemText } from '../../shared/problem-messages';

const SHOWN_MS = 30_000;
/**
 * How long a notification gathers before it shows: blocking cards an assistant asks together reach
 * this window over a few feed rounds, and the notification says how many came with its card.
 */
const GATHER_MS = 750;

interface Button extends vscode.MessageItem { run: () => void | Promise<void> }

export class CardNotifier extends DisposableBase {
  private showingUntil = 0;
  /** Blocking cards that arrived while the current notification gathered or showed (not told on their own). */
  private readonly untold = new Set<string>();

  constructor(
    private readonly core: ClientCore,
    private readonly open: (cardId: string) => void,
    private readonly log: Log,
    /** The terminal in this window where the asking assistant (or its agent) runs, when matched. */
    private readonly terminalOf: (target: { assistantId: string; agentId?: string }) => vscode.Terminal | undefined,
    private readonly contextKeys: ContextKeys,
  ) {
    super();
    this._register(core.cards.added((c) => this.consider(c, false)));
    // The person's own press in this window (Back, Take back, Undo) is not a return to tell them of.
    this._register(core.cards.changed(({ card, previous, pressedHere }) => { if (!pressedHere && isReturn(previous, card, thisComputer(core.state))) this.consider(card, true); }));
  }

  /**
   * The window the person is at: focused and holding the change feed (the presence window, the
   * one that speaks presence), so two open windows never both notify.
   */
  here(): boolean {
    // Focus, not recent activity: a person reading in the focused window is still at it.
    return vscode.window.state.focused && this.core.feed.isOwner();
  }

  /** Whether a card notification (or the Undo after its answer) still shows. */
  isShowing(): boolean { return Date.now() < this.showingUntil; }

  private consider(c: CardListEntry, returned: boolean): void {
    if (this.isDisposed) return;
    const setting = notifySettingNow();
    if (!wantsNotification(setting, c) || !this.here()) return;
    if (Date.now() < this.showingUntil) { if (c.blocking === true) this.untold.add(c.id); return; }
    this.untold.clear();
    const until = Date.now() + SHOWN_MS;
    this.showingUntil = until;
    void this.show(c, returned)
      .catch((e: unknown) => this.log.warn(`notification for ${c.id}: ${String(e)}`))
      .then(() => { if (this.showingUntil === until) this.showingUntil = 0; });
  }

  /** The next of the blocking cards that came with `shownId` and still wait (the tree's order), or none. */
  private nextOfBurst(shownId: string): NextCard | undefined {
    if (this.untold.size === 0) return undefined;
    return nextCard(this.core.cards.list('pending').filter((c) => this.untold.has(c.id)), [shownId]);
  }

  /** "Open Next": opens the card the notification named. */
  private openNextButton(next: NextCard): Button {
    return { title: vscode.l10n.t('Open Next'), run: () => this.open(next.id) };
  }

  private async show(entry: CardListEntry, returned: boolean): Promise<void> {
    // The whole card: its options, who asks. Its version is the one this notification shows.
    // Read while the cards asked with it arrive.
    const gathered = new Promise<void>((resolve) => setTimeout(resolve, GATHER_MS));
    let card: Card;
    try { card = await this.core.cards.whole(entry.id); } catch { card = entry as Card; }
    await gathered;
    if (this.isDisposed) return;
    const terminal = card.assistant
      ? this.terminalOf({ assistantId: card.assistant.id, ...(card.agent ? { agentId: card.agent.id } : {}) })
      : undefined;
    const set = buttonSet(card);
    const buttons: Button[] = set.kind === 'answers'
      ? set.answers.map((a) => ({ title: a.label, run: () => this.answer(card, a) }))
      : [];
    buttons.push({ title: vscode.l10n.t('Open'), run: () => this.open(card.id) });
    if (terminal) buttons.push({ title: vscode.l10n.t('Show Terminal'), run: () => terminal.show(false) });
    const next = this.nextOfBurst(card.id);
    if (next) buttons.push(this.openNextButton(next));
    const picked = await say.choose(withMoreWaiting(notificationText(card, terminal?.name, returned), next), ...buttons);
    await picked?.run();
  }

  /** The person pressed an answer in the notification: this runs inside that click, for the version it showed. */
  private async answer(shown: Card, button: AnswerButton): Promise<void> {
    const gesture = this.core.gestures.fromUiEvent('notification:answer');
    const out = await this.core.act(gesture, shown, { type: 'answer', answer: button.answer });
    if (!out.ok) {
      if (out.problem.code === 'version_conflict') return this.changed(shown.id);
      const buttons = [vscode.l10n.t('Open')];
      const x = await say.error(vscode.l10n.t('Assistant Cards: {0}', problemText(problemMessage(out.problem.code, out.problem))), ...buttons);
      if (x) this.open(shown.id);
      return;
    }
    this.contextKeys.noteAnswered(out);
    const text = answeredText(shown, button.said ?? button.label, hearsIn(out.holdUntil, Date.now()));
    // The answer covers this card only; the others that came with it are one press away.
    const next = this.nextOfBurst(shown.id);
    // Undo runs only on its own click (the press rule's static map reads this shape: test/sync/press-rule.test.ts).
    const undo = { title: vscode.l10n.t('Undo') };
    const openNext = { title: vscode.l10n.t('Open Next') };
    const x = await say.choose(withMoreWaiting(text, next), ...(next ? [undo, openNext] : [undo]));
    if (x === undo) await this.undo(out.card);
    else if (x === openNext && next) this.open(next.id);
  }

  /** Undo from the notification that told of the answer: for the version that answer made. */
  private async undo(answered: Card): Promise<void> {
    const gesture = this.core.gestures.fromUiEvent('notification:undo');
    const until = this.core.cards.holdUntil(answered.id);
    if (until === undefined || until <= Date.now()) {
      void say.info(vscode.l10n.t('Assistant Cards: the 5 s to undo are over; the assistant has the answer.'));
      return;
    }
    const out = await this.core.act(gesture, answered, { type: 'undo' });
    if (out.ok) void say.info(vscode.l10n.t('Assistant Cards: undone; the card waits on you again.'));
    else void say.error(vscode.l10n.t('Assistant Cards: {0}', problemText(problemMessage(out.problem.code, out.problem))));
  }

  private changed(id: string): void {
    this.open(id);
    void say.info(vscode.l10n.t('Assistant Cards: the card changed since that notification. It is open now: look again, then choose.'));
  }
}
