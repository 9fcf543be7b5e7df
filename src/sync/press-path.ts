// The one press path. Every place a person presses (the card panel, a notification's button, the
// command palette) mints a gesture from its UI event and calls `act` with the card as it was shown;
// nothing else acts. Here, once for all of them: the card the person saw is named, a version the
// model already knows to be newer is refused before anything is sent, the press is sent (spent
// gesture, one Idempotency-Key), its result goes into the model in ONE write with the hold on this
// computer's clock. An answer's card is built whole here (its answer and history line, in the
// service's words for this sign-in), so the press's own change on the feed is not read again; other
// presses are read once from their change. The hold's end is a change on the service's feed (#53),
// read from there like any other: no timer of its own here.
// What comes back is a value, never an exception.
import type { Card } from '../api/schemas';
import type { Clock, Logger } from '../api/runtime';
import { rowOf, type PressedBy } from './actions-table';
import { afterPress } from './after-press';
import type { CardModel } from './card-model';
import { holdDeadline } from './hold';
import type { PressAction, PressResult, SeenCard, UserGesture } from './press';
import type { ActOptions, PressOutcome } from './contract';
import { toProblem } from './press-outcome';
import type { PressSending } from './press-sending';

export interface PressPathOptions {
  presses: PressSending;
  model: CardModel;
  clock: Clock;
  /** The service's clock minus this computer's, as far as it is known (ServerTime). */
  skewMs: () => number;
  /** This window holds the feed's long-poll: the press's own change comes back on it at once. */
  ownsFeed: () => boolean;
  /** Reads the feed at once, then for the hold's end (feed-loop.ts); false when the feed is not running. */
  readFeedNow: () => boolean;
  /** This sign-in's app and computer as the service names them (`GET /v1/me`), once read. */
  signedInAs: () => Omit<PressedBy, 'at'> | undefined;
  logger: Logger;
}

/** What the person saw of a card, as the press names it: the id, the version, high stakes and where to open it. */
export function seenOf(shown: Pick<Card, 'id' | 'version' | 'highStakes' | 'url'>): SeenCard {
  return { id: shown.id, version: shown.version, ...(shown.highStakes ? { highStakes: true } : {}), ...(shown.url ? { url: shown.url } : {}) };
}

export class PressPath {
  constructor(private readonly o: PressPathOptions) {}

  /** One press of the person on the card as they were shown it. */
  async act(gesture: UserGesture, shown: Card, action: PressAction, opts: ActOptions = {}): Promise<PressOutcome> {
    const { model, logger } = this.o;
    const seen = seenOf(shown);
    const say = (what: string) => logger.info(`${action.type} on ${seen.id} (v${seen.version}) from ${gesture.source}: ${what}`);
    let press;
    try {
      press = this.o.presses.press(gesture, seen, action);
    } catch (e) {
      const problem = toProblem(e);
      say(problem.code);
      return { ok: false, problem };
    }
    const stop = () => press.cancel();
    if (opts.signal?.aborted) press.cancel();
    else opts.signal?.addEventListener('abort', stop, { once: true });
    let result: PressResult;
    try {
      result = await press.send();
    } catch (e) {
      if (opts.signal?.aborted) {
        say('the person moved on; no more retries');
        return { ok: false, problem: { code: 'cancelled' } };
      }
      const problem = toProblem(e);
      say(problem.code);
      return { ok: false, problem };
    } finally {
      opts.signal?.removeEventListener('abort', stop);
    }
    say(`ok, now v${result.version}`);
    const now = this.o.clock.now();
    const row = rowOf(action.type);
    const holdUntil = row.startsHold ? holdDeadline(result.undoUntil, this.o.skewMs(), now, true) : undefined;
    const as = this.o.signedInAs();
    const by = as ? { ...as, at: new Date(now + this.o.skewMs()).toISOString() } : undefined;
    const card = afterPress(shown, action, result, holdUntil, by);
    // Whole only when the row builds it so (an answer, Got it) and who pressed is known.
    model.takePressed(card, holdUntil, row.buildsWhole && by !== undefined);
    // The press's own change comes on the feed (read once, unless the card above is already whole:
    // card-model.ts). The window that holds the feed has it at once; another reads its feed now,
    // and then for the hold's end (which only the feed tells), instead of at its slow pace.
    if (!this.o.ownsFeed() && !this.o.readFeedNow()) this.readAgain(seen.id);
    return { ok: true, action: action.type, result, card: model.get(seen.id) as Card | undefined ?? card, ...(holdUntil !== undefined ? { holdUntil } : {}) };
  }

  private readAgain(id: string): void {
    void this.o.model.applyChanges([{ type: 'card.changed', cardId: id, at: '' }], { byPerson: true })
      .catch((e: unknown) => this.o.logger.warn(`reading ${id} after a press failed: ${String(e)}`));
  }
}
