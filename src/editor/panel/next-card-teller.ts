// Tells a card panel's webview which card comes next (shared/next-card.ts): once for the changes of
// one read (a read of many cards looks once, not once per card), and only when that changed since
// the webview was last told.
import { sameNext, type NextCard } from '../../shared/next-card';

export class NextCardTeller {
  /** What the webview was last told (`next` undefined: none); undefined until told after its `ready`. */
  private told: { next: NextCard | undefined } | undefined;
  private queued = false;

  /**
   * `look`: the card next after this one now. `mayTell`: whether the webview hears now (ready, and
   * the panel not closed). `tell`: posts it.
   */
  constructor(
    private readonly look: () => NextCard | undefined,
    private readonly mayTell: () => boolean,
    private readonly tell: (next: NextCard | undefined) => void,
  ) {}

  /** A new webview document: it knows nothing yet, so it is told now. */
  restart(): void {
    this.told = undefined;
    this.tellNow();
  }

  /** The cards waiting changed: look once, after the changes of this read. */
  changed(): void {
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(() => { this.queued = false; this.tellNow(); });
  }

  private tellNow(): void {
    if (!this.mayTell()) return;
    const next = this.look();
    if (this.told && sameNext(next, this.told.next)) return;
    this.told = { next };
    this.tell(next);
  }
}
