// A card's notification: when a card that waits on the person arrives or comes back to them (from
// Later, taken back, returned by a `loop` helper), in the window they are at only. It says who asks
// and where, and for an approval or a small single choice it offers the answers as buttons: one
// press answers the version this notification showed, then the next notification offers Undo for
// the hold. Anything else offers Open. Which cards and which buttons: shared/notify-rules.ts.
// Never more than one card notification at a time, and every card told once (#38): cards that
// arrive while one gathers or shows get none of their own; those that arrived before it showed are
// counted in it ("N more wait", "Open Next"), and those still untold when it ends are told then,
// once, in one notification of their own with Open Next. A toast hides by itself after a while
// but its promise stays open until dismissed, so "shows" ends at dismissal or after SHOWN_MS.
import * as vscode from 'vscode';
import type { Card, CardListEntry } from '../../api/schemas';
import type { ClientCore, PressOutcome } from '../../sync';
import type { ContextKeys } from '../context-keys';
import { DisposableBase } from '../base/disposable';
import type { Log } from '../base/log';
import { say } from '../base/say';
import { buttonLabel, pressWords, type PressTold } from '../base/press-words';
import { runPressButton, showTold } from '../base/press-toast';
import { openCardPage } from '../panel/open-link';
import { thisComputer } from '../../sync';
import { buttonSet, isReturn, notificationText, stillWaitingText, wantsNotification, withMoreWaiting, type AnswerButton, type MoreWaiting, type NotifySetting } from '../../shared/notify-rules';
import { nextCard, type NextCard } from '../../shared/next-card';
import { NOTIFY_ORDER, ownValue } from '../../shared/own-setting';

/**
 * `assistantCards.notify` from the person's own settings: a folder's `.vscode/settings.json` may
 * make it louder, never quieter (an `off` there would silence blocking cards; shared/own-setting.ts).
 */
export function notifySettingNow(): NotifySetting {
  return ownValue(vscode.workspace.getConfiguration('assistantCards').inspect('notify'), NOTIFY_ORDER, 'blocking');
}

const SHOWN_MS = 30_000;
/**
 * How long a notification gathers before it shows: blocking cards an assistant asks together reach
 * this window over a few feed rounds, and the notification says how many came with its card.
 */
const GATHER_MS = 750;

interface Button extends vscode.MessageItem { run: () => void | Promise<void> }

export class CardNotifier extends DisposableBase {
  private showingUntil = 0;
  private endTimer: ReturnType<typeof setTimeout> | undefined;
  /** Cards that arrived while the current notification gathered or showed, in arrival order. */
  private readonly burst = new Set<string>();
  /** Of `burst`, those no notification has counted yet: told when it ends. */
  private readonly untold = new Set<string>();
  /** Untold cards whose notification ended while this window was not where the person is: told when it is again. */
  private readonly owed = new Set<string>();

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
    this._register(vscode.window.onDidChangeWindowState((w) => { if (w.focused) this.tellOwed(); }));
    this._register({ dispose: () => clearTimeout(this.endTimer) });
  }

  /**
   * The window the person is at: focused and holding the change feed (the presence window, the
   * one that speaks presence), so two open windows never both notify.
   */
  here(): boolean {
    // Focus, not recent activity: a person reading in the focused window is still at it.
    return vscode.window.state.focused && this.core.feed.isOwner();
  }

  /** Whether a card notification (or the Undo after its answer, or the one telling the rest) still shows. */
  isShowing(): boolean { return Date.now() < this.showingUntil; }

  private consider(c: CardListEntry, returned: boolean): void {
    if (this.isDisposed) return;
    const setting = notifySettingNow();
    if (!wantsNotification(setting, c) || !this.here()) return;
    // Under `all` a card that does not block is counted too: every card wanted is told once.
    if (this.isShowing()) { this.burst.add(c.id); this.untold.add(c.id); return; }
    this.begin(() => this.show(c, returned));
  }

  /**
   * One notification shows (or gathers) from now until `run` ends or SHOWN_MS pass, whichever
   * comes first; then the cards that arrived meanwhile and are still untold are told.
   */
  private begin(run: () => Promise<void>): void {
    this.burst.clear();
    this.untold.clear();
    // Cards owed from a notification that ended while the person was elsewhere come with this one.
    for (const id of this.owed) { this.burst.add(id); this.untold.add(id); }
    this.owed.clear();
    const until = Date.now() + SHOWN_MS;
    this.showingUntil = until;
    clearTimeout(this.endTimer);
    this.endTimer = setTimeout(() => this.end(until), SHOWN_MS);
    void run()
      .catch((e: unknown) => this.log.warn(`card notification: ${String(e)}`))
      .then(() => this.end(until));
  }

  /** The notification begun at `until` ended: the cards still untold are told now, once. */
  private end(until: number): void {
    if (this.showingUntil !== until || this.isDisposed) return;
    this.showingUntil = 0;
    clearTimeout(this.endTimer);
    for (const id of this.untold) this.owed.add(id);
    this.untold.clear();
    this.burst.clear();
    this.tellOwed();
  }

  /** The untold cards, told now in one notification when this window is where the person is (else when it is again). */
  private tellOwed(): void {
    if (!this.owed.size || this.isShowing() || this.isDisposed || !this.here()) return;
    const rest = [...this.owed];
    this.owed.clear();
    this.begin(() => this.tellRest(rest));
  }

  /** "N more wait; next: …" with Open Next: the cards no notification told, those that still wait. */
  private async tellRest(ids: readonly string[]): Promise<void> {
    const next = this.nextOf(ids, []);
    if (!next) return;
    // Opens only: its one button is not an answer (and `Button.run` stays the answer buttons' one caller).
    const openNext = { title: vscode.l10n.t('Open Next') };
    if (await say.choose(stillWaitingText(next), openNext) === openNext) this.open(next.id);
  }

  /**
   * The next of `ids` that still wait (the tree's order), with how many more and whether all
   * block; undefined when none waits. Those counted are told.
   */
  private nextOf(ids: Iterable<string>, exclude: readonly string[]): (NextCard & MoreWaiting) | undefined {
    const set = new Set(ids);
    if (!set.size) return undefined;
    const waiting = this.core.cards.list('pending').filter((c) => set.has(c.id) && !exclude.includes(c.id));
    const next = nextCard(waiting, exclude);
    if (!next) return undefined;
    for (const c of waiting) this.untold.delete(c.id);
    return { ...next, allBlocking: waiting.every((c) => c.blocking === true) };
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
    // The cards that came with it so far are counted here; later ones are told when it ends.
    const next = this.nextOf(this.burst, [card.id]);
    if (next) buttons.push(this.openNextButton(next));
    const picked = await say.choose(withMoreWaiting(notificationText(card, terminal?.name, returned), next), ...buttons);
    await picked?.run();
  }

  /** The person pressed an answer in the notification: this runs inside that click, for the version it showed. */
  private async answer(shown: Card, button: AnswerButton): Promise<void> {
    const gesture = this.core.gestures.fromUiEvent('notification:answer');
    const out = await this.core.act(gesture, shown, { type: 'answer', answer: button.answer });
    this.contextKeys.noteAnswered(out);
    // What it did, as the panel and the palette say it (press-words.ts); the answer named by its button.
    const told = pressWords(out, { shown, surface: 'toast', said: button.said ?? button.label, now: Date.now() });
    if (!out.ok) return this.tellProblem(shown, told, out);
    // Those told above again (the answer covers its own card only), and any that arrived since, told now.
    const next = this.nextOf(this.burst, [shown.id]);
    // Undo runs only on its own click (the press rule's static map reads this shape: test/sync/press-rule.test.ts).
    const undo = { title: buttonLabel('undo') };
    const openNext = { title: vscode.l10n.t('Open Next') };
    const offered = [...(told.buttons.includes('undo') ? [undo] : []), ...(next ? [openNext] : [])];
    const x = await say.choose(withMoreWaiting(told.message, next), ...offered);
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
    this.contextKeys.noteAnswered(out);
    const told = pressWords(out, { shown: answered, surface: 'toast', now: Date.now() });
    if (!out.ok) return this.tellProblem(answered, told, out);
    void showTold(told);
  }

  /** A press from a notification failed: said as every place says it; its button opens the card (the new version, when it changed) or its page. */
  private async tellProblem(card: Card, told: PressTold, out: PressOutcome): Promise<void> {
    await runPressButton(await showTold(told), out, card, {
      openCard: (id) => this.open(id),
      openPage: (c) => openCardPage(this.core, c, this.log),
    });
  }
}
