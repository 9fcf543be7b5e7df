// A press from the card panel's webview, from its message to the reply the person is shown: the
// panel's own checks (a version it showed, one press at a time, what the sign-in allows, signed
// in), the one press path of the core, then the card shown again before the reply, so the live
// region goes from "Sending…" to the status that stands, once (#38 item 6).
import type { Card } from '../../api/schemas';
import type { ClientCore, UserGesture } from '../../sync';
import type { ContextKeys } from '../context-keys';
import type { Log } from '../base/log';
import { isChangedUnderfoot, pressWords } from '../base/press-words';
import { answerSummary } from '../../shared/answer-summary';
import { plainText } from '../../shared/plain-text';
import { problemMessage } from '../../shared/problem-messages';
import type { ActionMessage, ToWebview } from '../../shared/protocol';
import { helperNameOf } from '../../shared/hand-over';
import { EVERYTHING, SCOPE_OF, type Allowed } from '../../shared/grant-scopes';
import { missingFor } from '../../shared/card-actions';
import type { PanelMemory } from './panel-memory';
import type { PanelOrder } from './panel-order';
import { pressOf } from './panel-press';
import type { PanelReply } from './panel-reply';

/** What a press needs of the panel's parts (CardPanel's PanelDeps holds them). */
export interface PressDeps {
  core: ClientCore;
  log: Log;
  memory: PanelMemory;
  contextKeys: ContextKeys;
  timeZone: () => string;
  online: () => boolean;
  allowed?: () => Allowed;
}

/** How the panel shows its card again: `card` when given, else read `from` the model or the service. */
export interface ShowCard { from: 'model' | 'service'; card?: Card; changedSinceAnswer?: boolean }

/** The panel a press comes from, as the press sees it. */
export interface PressingPanel {
  readonly cardId: string;
  readonly order: PanelOrder;
  /** Aborted when the panel closes: the person moved on, the press being sent retries no more. */
  readonly movedOn: AbortSignal;
  readonly deps: PressDeps;
  /** The card as the webview shows it. */
  shown(): Card | undefined;
  isClosed(): boolean;
  post(m: ToWebview): void;
  show(how: ShowCard): Promise<void>;
  /** The hold as the model keeps it, while it runs. */
  hold(): { undoUntil?: string };
}

/** Sends the press `m` names and resolves to the reply the person was shown (undefined: none, the press was dropped). */
export async function pressFromPanel(m: ActionMessage, gesture: UserGesture, panel: PressingPanel): Promise<PanelReply | undefined> {
  const { order, deps } = panel;
  const reply = <T extends PanelReply>(message: T): T => { panel.post(message); return message; };
  // A press may only name a version this webview was shown: never a version the person has not seen.
  if (!order.mayName(m.version)) return reply({ type: 'problem', requestId: m.requestId, problem: problemMessage('version_conflict') });
  if (order.pressOnItsWay) return undefined; // one press at a time; a double click sends once
  // The panel hides what the sign-in may not do; a message for it anyway is answered, not sent.
  const missing = missingFor(deps.allowed?.() ?? EVERYTHING, m.type);
  if (missing) return reply({ type: 'problem', requestId: m.requestId, problem: problemMessage('insufficient_scope', { scope: SCOPE_OF[missing] }) });
  if (!deps.online()) return reply({ type: 'problem', requestId: m.requestId, problem: problemMessage('signed_out') });
  const card = panel.shown();
  // Got it closes a notice; on any other card it is not a press the panel offers.
  if (m.type === 'gotIt' && card?.kind !== 'update') {
    deps.log.warn('card panel: dropped a Got it for a card that is not a notice');
    return undefined;
  }
  order.startPress();
  panel.post({ type: 'busy', requestId: m.requestId });
  try {
    if (!card) return undefined;
    // The card as this webview showed it at the version the press names (an Undo names the answer's).
    const out = await deps.core.act(gesture, { ...card, version: m.version }, pressOf(m, deps.timeZone()), { signal: panel.movedOn });
    if (panel.isClosed()) return undefined;
    deps.contextKeys.noteAnswered(out);
    const ctx = {
      shown: card, surface: 'panel' as const, now: Date.now(),
      ...(m.type === 'answer' ? { said: answerSummary(card, m.body) } : m.type === 'message' ? { said: m.body } : {}),
      ...(m.type === 'delegate' ? { helperName: helperName(deps.core, m.assistantId, m.agentId) } : {}),
    };
    if (!out.ok) {
      const p = out.problem;
      // The card as it is now first, then the refusal: told the other way round, a version conflict
      // was said twice ("The card changed…", then "This card changed… (now version 2)…") and a
      // card found gone twice (the refusal, then its going).
      // The card changed: show the new version and ask again. Nothing is resent.
      if (isChangedUnderfoot(p.code)) await panel.show({ from: 'service', card: p.fresh, changedSinceAnswer: true });
      else if (p.code !== 'rate_limited' && p.code !== 'offline' && p.code !== 'timeout' && p.code !== 'cancelled') await panel.show({ from: 'service' });
      const shown: PanelReply = { type: 'problem', requestId: m.requestId, problem: pressWords(out, ctx).problem };
      return panel.isClosed() ? shown : reply(shown);
    }
    const told = pressWords(out, ctx);
    // The result is shown with its version: an Undo pressed before the reload names it.
    order.shown(out.result.version);
    const done = reply({
      type: 'done', requestId: m.requestId, message: told.message, version: out.result.version,
      ...panel.hold(), hostNowMs: Date.now(), ...(told.said ? { answered: told.said } : {}),
    });
    if (m.type === 'answer' || m.type === 'message') await deps.memory.setDraft(panel.cardId, undefined);
    // The history names a message by its id only: keep the words sent from here.
    if (m.type === 'message' && out.result.messageId) await deps.memory.rememberWords(panel.cardId, out.result.messageId, m.body);
    order.endPress(); // the person may press Undo while the card is shown again
    // The card as the model holds it: the press's built card, or already the read that followed
    // it (with this press in its history); a later read is told (cardChanged). The press's own
    // card when the model let it go (a notice's Got it with Done not read) or holds an older one.
    const held = deps.core.cards.held(panel.cardId);
    await panel.show({ from: 'model', card: held && held.version >= out.card.version ? held : out.card });
    return done;
  } finally {
    order.endPress();
  }
}

/** The helper's name as the assistants list gave it; blank when it is not there ("The helper", never its id). */
function helperName(core: ClientCore, assistantId: string, agentId?: string): string {
  return plainText(helperNameOf(core.assistants.list(), assistantId, agentId) ?? '', 80);
}
