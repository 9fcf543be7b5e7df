// The card as a press's answer left it, built from the version the person was shown and the
// service's answer (status, version, hold). The model takes it at once so every view moves in the
// same moment the place pressed says the result; the one read that follows replaces it whole.
import type { Card } from '../api/schemas';
import type { PressAction, PressResult } from './press';

/** `holdUntil` is the hold on this computer's clock (hold.ts), kept as the card's `undoUntil`. */
export function afterPress(shown: Card, action: PressAction['type'], r: PressResult, holdUntil: number | undefined): Card {
  const { undoUntil: _held, until: _until, ...rest } = shown;
  const next: Card = { ...rest, version: r.version, ...(r.status ? { status: r.status } : {}) };
  const undoUntil = holdUntil !== undefined ? new Date(holdUntil).toISOString() : undefined;
  switch (action) {
    case 'answer': case 'gotIt': return { ...next, status: r.status ?? 'answered', turn: 'agent', ...(undoUntil ? { undoUntil } : {}) };
    case 'message': return { ...next, turn: r.turn ?? 'agent' };
    case 'later': return { ...next, status: r.status ?? 'snoozed', ...(r.until ? { until: r.until } : {}) };
    case 'delegate': return { ...next, status: r.status ?? 'delegated', ...(undoUntil ? { undoUntil } : {}) };
    case 'undo': case 'back': case 'takeBack': return { ...next, status: r.status ?? 'pending', turn: 'you' };
  }
}

/** The actions whose answer starts a hold (the 5 s to undo or take back). */
export function startsHold(action: PressAction['type']): boolean {
  return action === 'answer' || action === 'gotIt' || action === 'delegate';
}
