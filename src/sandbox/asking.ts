// The assistants' side of a card, once: live sessions, what a card's assistant heard, the wait for
// it, pickup and withdraw. The asking surface (/_ask, ask-routes.ts) and the control surface
// (/_sandbox, control.ts) both call these; each route only checks who may call it. The sessions
// themselves, and their keys, are Sessions' (sessions.ts).
import type { Heard } from '../api/ask-schemas';
import type { ChangeFeed } from './feed';
import { iso } from './ids';
import type { Cards } from './lifecycle';
import type { Sessions } from './sessions';
import type { CardRec, HeardRec, SandboxState } from './state';

/** Open: the person has not closed it (done is the only closed state). */
export const isOpen = (c: CardRec): boolean => c.status !== 'done';

export class Asking {
  constructor(
    private readonly state: SandboxState,
    private readonly cards: Cards,
    private readonly sessions: Sessions,
    private readonly feed: ChangeFeed,
  ) {}

  /** The session ended: its open cards are withdrawn and it leaves the live list (Sessions.end). */
  end(appSessionId: string): { ended: boolean; withdrawn: string[] } {
    const withdrawn = this.withdrawFor(appSessionId, undefined);
    return { ended: this.sessions.end(appSessionId) !== undefined, withdrawn };
  }

  /** The session's open cards asked for one of `reasons` (every open card without them). */
  openCards(appSessionId: string, reasons?: readonly string[]): CardRec[] {
    return [...this.state.cards.live()].filter((c) => c.appSessionId === appSessionId && isOpen(c) && (!reasons || reasons.includes(c.reason ?? '')));
  }

  /** The person went on in the terminal: the session's open cards of `reasons` are withdrawn. */
  withdrawFor(appSessionId: string, reasons: readonly string[] | undefined): string[] {
    return this.openCards(appSessionId, reasons).map((c) => (this.cards.withdraw(c), c.id));
  }

  /** What the card's assistant heard, from the `seen`-th on. */
  heard(card: CardRec, seen = 0): (Heard & { from?: HeardRec['from'] })[] {
    return card.heard.slice(seen).map((h) => ({ at: iso(h.at), type: h.type, body: h.body as Record<string, unknown>, ...(h.from ? { from: h.from } : {}) }));
  }

  /**
   * Resolves once the card heard something past `seen`, closed, `ms` passed, or `gone` was
   * called. It listens to the change feed (a hold's end is a change), never polls; `onHeard` runs
   * in the same step as the change that brought it (the wait's pickup: one call, no window).
   */
  waitFor(card: CardRec, seen: number, ms: number, onHeard?: () => void): { done: Promise<void>; cancel(): void } {
    let cancel = () => undefined as void;
    const done = new Promise<void>((resolve) => {
      const look = () => {
        if (card.heard.length > seen) onHeard?.();
        else if (isOpen(card)) return false;
        return true;
      };
      if (look() || ms <= 0) { resolve(); return; }
      const finish = () => { stop(); clearTimeout(timer); resolve(); };
      const stop = this.feed.listen(() => { if (look()) finish(); });
      const timer = setTimeout(finish, ms);
      timer.unref();
      cancel = finish;
    });
    return { done, cancel: () => cancel() };
  }

  /** The assistant picks the answer (or the words) up: the card is done. Null, or why not. */
  pickup(card: CardRec): string | null {
    return this.cards.pickup(card);
  }

  /** The assistant withdraws the card. Null, or why not (it is done already). */
  withdraw(card: CardRec): string | null {
    return this.cards.withdraw(card);
  }
}
