// An agent's `openCards` (GET /v1/assistants) counts its cards that wait on the person: pending or
// snoozed, the person's turn (the service's count). The change feed says nothing of assistants, so
// a card that comes or goes would leave the Assistants view's count behind until the next read (up
// to a minute, "shop · live · 0 open cards" beside the card waiting): this tells whose count a
// card's change moved, so that the read comes at once.
import type { CardListEntry } from '../api/schemas';

const counted = (c: CardListEntry | undefined): boolean =>
  c !== undefined && (c.status === 'pending' || c.status === 'snoozed') && c.turn === 'you';
/** The agent a card names: a whole card only (the lighter form names none). */
const agentOf = (c: CardListEntry | undefined): string | undefined => (c && 'agent' in c ? c.agent?.id : undefined);

/** The agent whose open count a card's change moved (came, went, or turned to or from the person), if the card names one. */
export function openCountMovedFor(previous: CardListEntry | undefined, next: CardListEntry | undefined): string | undefined {
  if (counted(previous) === counted(next)) return undefined;
  return agentOf(next) ?? agentOf(previous);
}
