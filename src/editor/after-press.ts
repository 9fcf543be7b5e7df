// The card as a press's answer left it, built from the version the panel showed and the
// service's answer (status, version, hold). The model takes it at once so the tree moves in the
// same moment the panel says the result; the panel's read that follows replaces it whole.
import type { Card } from '../api/schemas';
import type { PressResult } from '../sync/press';
import type { ActionName } from './shared/protocol';

/** `undoUntil` is the hold on this computer's clock (the panel's countdown), so both views end it together. */
export function afterPress(shown: Card, action: ActionName, r: PressResult, undoUntil: string | undefined): Card {
  const { undoUntil: _held, until: _until, ...rest } = shown;
  const next: Card = { ...rest, version: r.version, ...(r.status ? { status: r.status } : {}) };
  switch (action) {
    case 'answer': case 'gotIt': return { ...next, status: r.status ?? 'answered', turn: 'agent', ...(undoUntil ? { undoUntil } : {}) };
    case 'message': return { ...next, turn: r.turn ?? 'agent' };
    case 'later': return { ...next, status: r.status ?? 'snoozed', ...(r.until ? { until: r.until } : {}) };
    case 'delegate': return { ...next, status: r.status ?? 'delegated', ...(undoUntil ? { undoUntil } : {}) };
    case 'undo': case 'back': case 'takeBack': return { ...next, status: r.status ?? 'pending', turn: 'you' };
  }
}
