// Each card's hold (the 5 s to undo or take back) on this computer's clock, for the version it was
// set for (hold.ts): the card model keeps a card's `undoUntil` as this local deadline, converted
// once per version, so a read of the version a press left keeps the press's deadline.
import type { CardListEntry } from '../api/schemas';
import { holdDeadline } from './hold';

/**
 * How long after a hold's end a window that pressed keeps reading the feed for it: the service
 * makes the change at its own clock's end, so a little after ours; past this the change is not
 * coming (the card went away, a read failed) and the feed goes back to its pace.
 */
const HOLD_END_WATCH_MS = 30_000;

export class CardHolds {
  private readonly byId = new Map<string, { version: number; until: number; pressedHere?: boolean }>();

  /** This computer's clock and how far the service's is off it. */
  constructor(private readonly clock: { now(): number; skewMs(): number }) {}

  /** The hold a press left on this version of the card, on this computer's clock. */
  set(card: Pick<CardListEntry, 'id' | 'version'>, until: number, pressedHere = false): void {
    this.byId.set(card.id, { version: card.version, until, ...(pressedHere ? { pressedHere } : {}) });
  }

  /**
   * A hold this window's person started whose end has not come through yet: the card is still at
   * the version the press left, answered or handed over, and the end is less than
   * HOLD_END_WATCH_MS past. The feed reads for it even in a window that does not own the feed, so
   * the card moves when the assistant hears it (#53: the hold's end is a change on the feed).
   */
  awaitingEnd(cardOf: (id: string) => CardListEntry | undefined): boolean {
    const now = this.clock.now();
    for (const [id, hold] of this.byId) {
      if (!hold.pressedHere) continue;
      // Past the watch, the hold is no longer this window's to wait for: the next round skips it at once.
      if (now > hold.until + HOLD_END_WATCH_MS) { delete hold.pressedHere; continue; }
      const card = cardOf(id);
      if (card && this.untilOf(card) === hold.until) return true;
    }
    return false;
  }

  /**
   * The card stands as this window's own answer left it, its hold running: a `card.answered` on
   * the feed now is that answer's own change (nobody else may answer or undo in the hold).
   */
  answeredHere(card: CardListEntry): boolean {
    return card.status === 'answered' && this.untilOf(card) !== undefined && this.byId.get(card.id)?.pressedHere === true;
  }

  /** When the card's hold ends, on this computer's clock; undefined when none runs. */
  untilOf(card: CardListEntry): number | undefined {
    const hold = this.byId.get(card.id);
    if (!hold || hold.version !== card.version || (card.status !== 'answered' && card.status !== 'delegated')) return undefined;
    return hold.until;
  }

  /** A card as the model keeps it: its `undoUntil` on this computer's clock. */
  onLocalClock<T extends CardListEntry>(card: T): T {
    const undoUntil = 'undoUntil' in card && typeof card.undoUntil === 'string' ? card.undoUntil : undefined;
    if (!undoUntil) return card;
    const known = this.byId.get(card.id);
    const same = known && known.version === card.version ? known : undefined;
    const until = same ? same.until : holdDeadline(undoUntil, this.clock.skewMs(), this.clock.now(), false);
    if (until === undefined) return card;
    this.byId.set(card.id, { version: card.version, until, ...(same?.pressedHere ? { pressedHere: true } : {}) });
    return { ...card, undoUntil: new Date(until).toISOString() };
  }

  delete(id: string): void {
    this.byId.delete(id);
  }

  clear(): void {
    this.byId.clear();
  }
}
