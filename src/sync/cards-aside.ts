// Cards read by id while outside a window's workspace scope, kept aside so that a scope which
// grows to take them in shows them at once, without reading the lists again (#53: a new
// session's first prompt went round twice: its card read, dropped as out of scope, the
// assistants read, then every list read again, which carried the same card a second time).
// The card model drops such a card (card-model.ts put); this keeps the newest whole form the
// client read of it, which the feed keeps current: every change is read by id, in scope or not.
import type { Assistant, Card } from '../api/schemas';
import type { CardScope } from './contract';

/** At most this many cards are kept aside (the oldest read goes first): a bound, never a cache of everything. */
const MAX_ASIDE = 200;

/** The cards the model needs to hold of an agent for a grown scope to skip the lists: its waiting ones. */
export interface HeldCards {
  /** The whole cards the model holds (held, not light: a light one names no agent). */
  waitingOf(agentId: string): number;
}

export class CardsAside {
  private readonly cards = new Map<string, Card>();

  /** A card read by id, whole; kept while its assistant is outside `scope` and it is open. */
  saw(card: Card, scope: CardScope): void {
    this.cards.delete(card.id); // re-inserted last: the map's order is the order of reads
    if (scope.kind !== 'workspace' || !card.assistant || scope.assistantIds.includes(card.assistant.id)) return;
    if (card.status === 'done' || card.kind === 'update') return;
    this.cards.set(card.id, card);
    if (this.cards.size > MAX_ASIDE) this.cards.delete(this.cards.keys().next().value!);
  }

  /** The card is gone (read as not found). */
  forget(id: string): void {
    this.cards.delete(id);
  }

  clear(): void {
    this.cards.clear();
  }

  /** Takes out the cards of these assistants, oldest read first: the grown scope lets them in. */
  take(assistantIds: readonly string[]): Card[] {
    const out: Card[] = [];
    for (const [id, c] of this.cards) {
      if (c.assistant && assistantIds.includes(c.assistant.id)) {
        out.push(c);
        this.cards.delete(id);
      }
    }
    return out;
  }

  get size(): number {
    return this.cards.size;
  }
}

/**
 * The assistants a workspace scope gained, when it only grew (none left it); undefined for any
 * other change (another kind, one that lost an assistant): then the lists are read again.
 */
export function grownBy(was: CardScope, now: CardScope): string[] | undefined {
  if (was.kind !== 'workspace' || now.kind !== 'workspace') return undefined;
  if (!was.assistantIds.every((id) => now.assistantIds.includes(id))) return undefined;
  const added = now.assistantIds.filter((id) => !was.assistantIds.includes(id));
  return added.length ? added : undefined;
}

/**
 * Whether the model holds every card waiting on the person of these assistants, by the
 * assistants read's own count (`openCards` per agent: pending or snoozed, the person's turn).
 * False when an assistant is not in the list (a read from before it registered): read the lists.
 */
export function holdsWaitingOf(assistantIds: readonly string[], assistants: readonly Assistant[], held: HeldCards): boolean {
  return assistantIds.every((id) => {
    const a = assistants.find((x) => x.id === id);
    return a !== undefined && a.agents.every((g) => held.waitingOf(g.id) >= g.openCards);
  });
}
