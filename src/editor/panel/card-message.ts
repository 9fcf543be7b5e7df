// The message that shows the card in the panel's webview: the card as the panel shows it
// (shared/panel-card.ts, never the wire's), and what goes with it: the version presses name, the
// draft and words kept here, what the sign-in allows, the hold, where the card's assistant runs.
import type { Card } from '../../api/schemas';
import { elsewhereName } from '../../shared/card-computer';
import { EVERYTHING, notAllowedNote, type Allowed } from '../../shared/grant-scopes';
import { panelCardOf } from '../../shared/panel-card';
import type { ToWebview } from '../../shared/protocol';
import type { PanelMemory } from './panel-memory';

/** What the message needs of the panel's parts (CardPanel's PanelDeps holds them). */
export interface CardMessageDeps {
  memory: PanelMemory;
  timeZone: () => string;
  allowed?: () => Allowed;
  thisComputer?: () => string | undefined;
}

/** What the panel decided for this showing: whether it offers actions, the hold while it runs, whether the card changed under a press. */
export interface Showing { canAct: boolean; hold: { undoUntil?: string }; changedSinceAnswer: boolean }

export function cardMessage(cardId: string, card: Card, deps: CardMessageDeps, showing: Showing): Extract<ToWebview, { type: 'card' }> {
  const draft = deps.memory.draft(cardId);
  const sentWords = deps.memory.sentWords(cardId);
  const allowed = deps.allowed?.() ?? EVERYTHING;
  const notAllowed = notAllowedNote(allowed);
  const elsewhere = elsewhereName(card, deps.thisComputer?.());
  return {
    type: 'card',
    card: panelCardOf(card),
    shownVersion: card.version,
    ...(showing.changedSinceAnswer ? { changedSinceAnswer: true } : {}),
    ...(draft ? { draft } : {}),
    timeZone: deps.timeZone(),
    canAct: showing.canAct,
    ...showing.hold,
    hostNowMs: Date.now(),
    ...(sentWords ? { sentWords } : {}),
    allowed,
    ...(notAllowed ? { notAllowed } : {}),
    ...(elsewhere ? { elsewhere } : {}),
  };
}
