// Card reads by id. One request per card however many parts want it at the same time (coalesced
// while in flight, keyed by the card id and the If-None-Match the read would send), and the
// person's reads told apart from background ones: a read the person asked for, or of a card they
// pressed on a moment ago, is theirs and never waits on the background budget.
import type { ApiClient } from '../api/client';
import { AbortedError } from '../api/runtime';
import type { Clock } from '../api/runtime';
import type { Card } from '../api/schemas';

/** Reads of a pressed card this soon after the press are the person's (the 5 s undo hold, then heard). */
export const PRESS_FOLLOW_MS = 15_000;

export interface CardReadOptions {
  /** The person asked for this read (opened the card, pressed on it). */
  byPerson?: boolean;
  /** Ends this caller's wait; the shared request ends only once every caller has gone. */
  signal?: AbortSignal;
}

export interface CardReadsOptions {
  api: ApiClient;
  clock: Clock;
  /** Waits until a background read fits the budget. */
  beforeBackgroundRead: (signal?: AbortSignal) => Promise<void>;
}

interface InFlight {
  promise: Promise<Card>;
  abort: AbortController;
  callers: number;
}

export class CardReads {
  private readonly inFlight = new Map<string, InFlight>();
  private readonly pressedAt = new Map<string, number>();
  private lastPress = Number.NEGATIVE_INFINITY;

  constructor(private readonly o: CardReadsOptions) {}

  /** The person pressed on this card: the reads that follow are theirs. */
  pressed(id: string): void {
    const now = this.o.clock.now();
    this.lastPress = now;
    for (const [k, at] of this.pressedAt) if (now - at > PRESS_FOLLOW_MS) this.pressedAt.delete(k);
    this.pressedAt.set(id, now);
  }

  /** The person pressed something a moment ago (they are at work here). */
  personActive(): boolean {
    return this.o.clock.now() - this.lastPress <= PRESS_FOLLOW_MS;
  }

  async read(id: string, opts: CardReadOptions = {}): Promise<Card> {
    const at = this.pressedAt.get(id);
    const byPerson = opts.byPerson === true || (at !== undefined && this.o.clock.now() - at <= PRESS_FOLLOW_MS);
    let f = this.inFlight.get(this.keyOf(id));
    if (!f) {
      if (!byPerson) await this.o.beforeBackgroundRead(opts.signal);
      // The caller left before the request went (sync stopped while it waited its turn): nothing to send.
      if (opts.signal?.aborted) throw new AbortedError();
      // Someone may have started the same read while this one waited.
      f = this.inFlight.get(this.keyOf(id)) ?? this.start(id, byPerson);
    }
    return this.join(f, opts.signal);
  }

  private keyOf(id: string): string {
    return `${id}\n${this.o.api.cardEtag(id) ?? ''}`;
  }

  private start(id: string, byPerson: boolean): InFlight {
    const key = this.keyOf(id);
    const abort = new AbortController();
    const promise = this.o.api.getCard(id, { signal: abort.signal, byPerson });
    const f: InFlight = { promise, abort, callers: 0 };
    this.inFlight.set(key, f);
    // Settled: the next read is a new request (and no caller left means nobody to tell).
    promise.then(
      () => this.inFlight.get(key) === f && this.inFlight.delete(key),
      () => this.inFlight.get(key) === f && this.inFlight.delete(key),
    );
    return f;
  }

  private join(f: InFlight, signal: AbortSignal | undefined): Promise<Card> {
    if (signal?.aborted) return Promise.reject(new AbortedError());
    f.callers++;
    return new Promise<Card>((resolve, reject) => {
      const leave = () => {
        signal?.removeEventListener('abort', onAbort);
        f.callers--;
      };
      const onAbort = () => {
        leave();
        if (f.callers === 0) f.abort.abort();
        reject(new AbortedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      f.promise.then(
        (card) => {
          if (signal?.aborted) return;
          leave();
          resolve(card);
        },
        (e: unknown) => {
          if (signal?.aborted) return;
          leave();
          reject(e);
        },
      );
    });
  }
}
