// The press: the ONLY way an action on a card is sent.
//
// Rule (spec: "An app acts only when the person presses something in it"): an action needs a
// UserGesture, and a UserGesture can only be minted by the function the client core hands to the
// editor's UI event handlers (`ClientCore.gestures.fromUiEvent`). The type makes forging
// impossible (private constructor + an ES private brand checked at run time); the run-time checks
// make a gesture good for ONE press, and only within GESTURE_FRESH_MS of the event, so a timer or
// a model that somehow kept one cannot act later. A press carries the card id and the version the
// person saw, sends once, and retries only with its own Idempotency-Key while the person is still
// waiting (until `cancel()`).
import { randomUUID } from 'node:crypto';
import type { Clock } from '../api/runtime';
import { HighStakesError } from '../api/errors';
import { rowOf, type PressAction } from './actions-table';
import type { PressResult, SeenCard } from './press-types';

export type { PressResult, SeenCard } from './press-types';

/** How long after the UI event a gesture may still create its press. */
export const GESTURE_FRESH_MS = 5_000;

export class UserGesture {
  #brand = true;
  #used = false;
  private constructor(readonly source: string, readonly at: number) {}

  /** @internal minted only through `createGestureMinter` */
  static mint(source: string, at: number, token: typeof MINT_TOKEN): UserGesture {
    if (token !== MINT_TOKEN) throw new TypeError('A UserGesture is minted only by a UI event handler');
    return new UserGesture(source, at);
  }

  /** @internal spends the gesture; throws when forged, used or stale. */
  static spend(g: UserGesture, now: number): void {
    if (!(g instanceof UserGesture) || !(#brand in g) || !g.#brand) throw new TypeError('Not a UserGesture');
    if (g.#used) throw new PressRefusedError('This press was already used for an action.');
    if (now - g.at > GESTURE_FRESH_MS || now < g.at - 1_000) {
      throw new PressRefusedError('The action was not made right after a press; press again.');
    }
    g.#used = true;
  }
}

const MINT_TOKEN: unique symbol = Symbol('user-gesture-mint');

/** For session.ts only: the minter the editor receives. Nothing on a timer ever holds it. */
export function createGestureMinter(clock: Clock): { fromUiEvent(source: string): UserGesture } {
  return { fromUiEvent: (source: string) => UserGesture.mint(source, clock.now(), MINT_TOKEN) };
}

export class PressRefusedError extends Error {
  readonly kind = 'press-refused';
  constructor(message: string) {
    super(message);
    this.name = 'PressRefusedError';
  }
}


export type { PressAction } from './actions-table';


export interface SendContext {
  idempotencyKey: string;
  /** False once the person moved on: the transport must not retry any more. */
  stillWaiting: () => boolean;
  signal: AbortSignal;
}

export type PressSender = (card: SeenCard, action: PressAction, ctx: SendContext) => Promise<PressResult>;

export type PressState = 'ready' | 'sending' | 'sent' | 'failed' | 'cancelled';

export class Press {
  /** One key per press, reused for every retry of this press, never for another. */
  readonly idempotencyKey: string = randomUUID();
  #state: PressState = 'ready';
  #promise: Promise<PressResult> | undefined;
  readonly #abort = new AbortController();

  private constructor(
    readonly card: Readonly<SeenCard>,
    readonly action: Readonly<PressAction>,
    readonly gestureSource: string,
    private readonly sender: PressSender,
  ) {}

  /** @internal used by press-sending.ts: spends the gesture, refuses high-stakes cards before any request. */
  static create(gesture: UserGesture, card: SeenCard, action: PressAction, sender: PressSender, clock: Clock): Press {
    UserGesture.spend(gesture, clock.now());
    // The one high-stakes check of the press (the views may say it earlier): the action's row says whether it applies.
    if (card.highStakes && rowOf(action.type).refusedOnHighStakes) throw new HighStakesError(card.id, card.url);
    if (!Number.isInteger(card.version)) throw new PressRefusedError('The press does not name the version the person saw.');
    return new Press({ ...card }, structuredClone(action), gesture.source, sender);
  }

  get state(): PressState {
    return this.#state;
  }

  /** Sends once. A second call returns the same outcome; it never sends again. */
  send(): Promise<PressResult> {
    if (!this.#promise) {
      if (this.#state === 'cancelled') return Promise.reject(new PressRefusedError('The press was cancelled.'));
      this.#state = 'sending';
      this.#promise = this.sender(this.card, this.action, {
        idempotencyKey: this.idempotencyKey,
        stillWaiting: () => this.#state === 'sending' && !this.#abort.signal.aborted,
        signal: this.#abort.signal,
      }).then(
        (r) => {
          this.#state = 'sent';
          return r;
        },
        (e: unknown) => {
          if (this.#state !== 'cancelled') this.#state = 'failed';
          throw e;
        },
      );
    }
    return this.#promise;
  }

  /** The person moved on (closed the panel, pressed something else): no more retries. */
  cancel(): void {
    if (this.#state === 'ready' || this.#state === 'sending') {
      this.#state = 'cancelled';
      this.#abort.abort();
    }
  }
}
