// Each card's hold (the 5 s to undo or take back) on this computer's clock, for the version it was
// set for (hold.ts): the card model keeps a card's `undoUntil` as this local deadline, converted
// once per version, so a read of the version a press left keeps the press's deadline.
import type { CardListEntry } from '../api/schemas';
import { holdDeadline } from './hold';

export class CardHolds {
  private readonly byId = new Map<string, { version: number; until: number }>();

  /** This computer's clock and how far the service's is off it. */
  constructor(private readonly clock: { now(): number; skewMs(): number }) {}

  /** The hold a press left on this version of the card, on this computer's clock. */
  set(card: Pick<CardListEntry, 'id' | 'version'>, until: number): void {
    this.byId.set(card.id, { version: card.version, until });
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
    const until = known && known.version === card.version ? known.until : holdDeadline(undoUntil, this.clock.skewMs(), this.clock.now(), false);
    if (until === undefined) return card;
    this.byId.set(card.id, { version: card.version, until });
    return { ...card, undoUntil: new Date(until).toISOString() };
  }

  delete(id: string): void {
    this.byId.delete(id);
  }

  clear(): void {
    this.byId.clear();
  }
}
