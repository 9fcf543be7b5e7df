// A row of the change log: a card and what happened to it, in commit order (feed.ts reads it).
export type ChangeType = 'card.created' | 'card.answered' | 'card.changed' | 'card.closed';

export interface ChangeRec {
  seq: number;
  type: ChangeType;
  cardId: string;
  at: number;
}
