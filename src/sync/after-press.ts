// The card as a press's answer left it, built from the version the person was shown and the
// service's answer (status, version, hold). The model takes it at once so every view moves in the
// same moment the place pressed says the result; the one read that follows replaces it whole.
// What each action leaves is its row's `leaves` (actions-table.ts).
import type { Card } from '../api/schemas';
import { rowOf, type PressAction, type PressedBy } from './actions-table';
import type { PressResult } from './press';

/**
 * `holdUntil` is the hold on this computer's clock (hold.ts), kept as the card's `undoUntil`; `by`
 * who pressed as the service names this sign-in (an answer's history line), when known.
 */
export function afterPress(shown: Card, action: PressAction, r: PressResult, holdUntil: number | undefined, by?: PressedBy): Card {
  const { undoUntil: _held, until: _until, ...rest } = shown;
  const next: Card = { ...rest, version: r.version, ...(r.status ? { status: r.status } : {}) };
  const undoUntil = holdUntil !== undefined ? new Date(holdUntil).toISOString() : undefined;
  return rowOf(action.type).leaves(next, r, undoUntil, action, by);
}
