// Every card action, one row each: the request it sends, whether it starts the hold, whether a
// high-stakes card refuses it, and the card it leaves until the read that follows (and whether that
// card is whole). The press path (press.ts, press-sending.ts, press-path.ts) reads its rules here and
// nowhere else. What the person meets of an action (its message, command, scopes, words, buttons)
// is its row in shared/card-actions.ts, keyed the same: a new action is a new PressAction and a
// row in each (docs/decisions.md "#39", "#53: a new card action").
import type { ApiClient, WriteOptions } from '../api/client';
import type { AnswerBody, Card, DelegateBody, Named } from '../api/schemas';
import type { PressResult, SeenCard } from './press-types';

export type PressAction =
  | { type: 'answer'; answer: Omit<AnswerBody, 'version'> }
  /** Close an `update` card: answer with its version and nothing else. */
  | { type: 'gotIt' }
  | { type: 'undo' }
  | { type: 'message'; body: string; via?: 'text' | 'voice' }
  | { type: 'later'; until: string; timeZone?: string }
  | { type: 'back' }
  | { type: 'delegate'; to: DelegateBody['to']; mode: DelegateBody['mode']; note?: string }
  | { type: 'takeBack' };

export type ActionType = PressAction['type'];
type ActionOf<T extends ActionType> = Extract<PressAction, { type: T }>;

/** The card writes of the client: the only thing a row's `send` may call. */
export type CardWrites = Pick<ApiClient, 'answer' | 'undo' | 'message' | 'later' | 'back' | 'delegate' | 'takeBack'>;

export interface ActionRow<T extends ActionType> {
  /** The one request of the press: a card write naming the version the person saw. Called by PressSending.send only. */
  send(api: CardWrites, card: SeenCard, action: ActionOf<T>, w: WriteOptions): Promise<PressResult>;
  /** Its answer starts the hold: the 5 s to undo or take back, kept on this computer's clock. */
  startsHold: boolean;
  /** A high-stakes card is answered only in the service: the core refuses the press before any request. */
  refusedOnHighStakes: boolean;
  /**
   * The card as the press leaves it, until the read that follows replaces it: `next` is the card
   * shown at the answer's version and status; `undoUntil` the hold, when one runs; `by` who
   * pressed, as the service names this sign-in, when it is known.
   */
  leaves(next: Card, r: PressResult, undoUntil: string | undefined, action: ActionOf<T>, by: PressedBy | undefined): Card;
  /**
   * Given who pressed, `leaves` writes the card whole, as the service will (the answer, where it
   * was answered from, the history line): its own change on the feed need not be read (#53).
   */
  buildsWhole: boolean;
}

/**
 * Who pressed, in the service's own words for this sign-in (`GET /v1/me`: its app, this
 * computer) and when on the service's clock: an answer's history line and `answeredFrom` are
 * written from it, as the service writes them, so the press's own change needs no read (#53).
 */
export interface PressedBy {
  at: string;
  app: Named;
  machine?: Named;
}

const withHold = (undoUntil: string | undefined) => (undoUntil ? { undoUntil } : {});
/** Back with the person: Undo, Back and Take back all leave the card waiting on them. */
const waitsOnYouAgain = (next: Card, r: PressResult): Card => ({ ...next, status: r.status ?? 'pending', turn: 'you' });
const answered = (next: Card, r: PressResult, undoUntil: string | undefined, body: Record<string, unknown>, by: PressedBy | undefined, step: 'answered' | 'got-it'): Card =>
  ({ ...next, status: r.status ?? 'answered', turn: 'agent', ...withHold(undoUntil), ...(by ? answerTold(next, body, by, step) : {}) });
/** The answer's fields as they go on the wire (JSON drops what is undefined). */
const sentFields = (body: object): Record<string, unknown> => Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
/** What the service adds to a card it was answered on: the answer, where from, and the history line. */
function answerTold(next: Card, body: Record<string, unknown>, by: PressedBy, step: 'answered' | 'got-it'): Partial<Card> {
  const machine = by.machine ? { machine: by.machine } : {};
  return {
    answer: body,
    answeredFrom: { app: by.app.name, ...machine },
    history: [...(next.history ?? []), { at: by.at, type: step, by: 'person', app: by.app.id, appName: by.app.name, ...machine }],
  };
}

export const ACTIONS: { readonly [T in ActionType]: ActionRow<T> } = {
  answer: {
    send(api, card, a, w) { return api.answer(card.id, { ...a.answer, version: card.version }, w); },
    startsHold: true, refusedOnHighStakes: true, buildsWhole: true,
    leaves: (next, r, undoUntil, a, by) => answered(next, r, undoUntil, sentFields(a.answer), by, 'answered'),
  },
  gotIt: {
    send(api, card, _a, w) { return api.answer(card.id, { version: card.version }, w); },
    startsHold: true, refusedOnHighStakes: true, buildsWhole: true,
    leaves: (next, r, undoUntil, _a, by) => answered(next, r, undoUntil, {}, by, 'got-it'),
  },
  undo: {
    send(api, card, _a, w) { return api.undo(card.id, w); },
    startsHold: false, refusedOnHighStakes: true, buildsWhole: false, leaves: waitsOnYouAgain,
  },
  message: {
    send(api, card, a, w) { return api.message(card.id, { body: a.body, via: a.via }, w); },
    startsHold: false, refusedOnHighStakes: true, buildsWhole: false,
    leaves: (next, r) => ({ ...next, turn: r.turn ?? 'agent' }),
  },
  later: {
    send(api, card, a, w) { return api.later(card.id, { until: a.until, timeZone: a.timeZone }, w); },
    startsHold: false, refusedOnHighStakes: true, buildsWhole: false,
    leaves: (next, r) => ({ ...next, status: r.status ?? 'snoozed', ...(r.until ? { until: r.until } : {}) }),
  },
  back: {
    send(api, card, _a, w) { return api.back(card.id, w); },
    startsHold: false, refusedOnHighStakes: true, buildsWhole: false, leaves: waitsOnYouAgain,
  },
  delegate: {
    send(api, card, a, w) { return api.delegate(card.id, { to: a.to, mode: a.mode, note: a.note }, w); },
    startsHold: true, refusedOnHighStakes: true, buildsWhole: false,
    leaves: (next, r, undoUntil) => ({ ...next, status: r.status ?? 'delegated', ...withHold(undoUntil) }),
  },
  takeBack: {
    send(api, card, _a, w) { return api.takeBack(card.id, w); },
    startsHold: false, refusedOnHighStakes: true, buildsWhole: false, leaves: waitsOnYouAgain,
  },
};

/**
 * The row of an action, typed for any action: TypeScript cannot follow that `ACTIONS[a.type]` and
 * `a` are of the same action (a correlated union), so this one cast says it.
 */
export function rowOf(type: ActionType): ActionRow<ActionType> {
  return ACTIONS[type] as ActionRow<ActionType>;
}
