// One way to ask, for every assistant on this computer (the hook bridge, `ask`, the demo): register
// the live session (with its first card, in one call), wait for what the card hears (picking it up
// in the same call), or withdraw it. It speaks only the local service's asking surface (/_ask/,
// docs/ask-api.md), never the person's API, and it never answers. Its shapes are the schema
// module's types (src/api/ask-schemas.ts); nothing of zod is loaded here.
import type {
  AskedCard, AskedCardState, AskTerminal, Heard, HeardAnswer, Registered, SessionEnded, SessionRegistration, Withdrawn,
} from '../api/ask-schemas';
import { ASK_WAIT_MAX_MS } from '../api/constants';
import { ASK_TIMEOUT_MS, ServiceError, ServiceLink, type ServiceInfo } from './service-link';

export type { AskedCard, AskedCardState, Heard };

/** A session as the asker registers it: the schema's registration without the card. */
export type SessionInfo = Omit<SessionRegistration, 'card' | 'terminal'> & { terminal?: AskTerminal };

/** What became of a card the asker waited on. */
export type WaitResult =
  | { kind: 'heard'; heard: Heard[]; pickedUp: boolean }
  | { kind: 'closed'; card: AskedCardState }
  | { kind: 'timeout' };

/** The service's hold: a wait that ends inside it is held on by the service this much longer at most (#52 F8). */
const HOLD_MARGIN_MS = 6_000;

/** Where a session's own key is kept between one process and the next (a hook runs once per event). */
export interface SessionKeys {
  get(appSessionId: string): string | undefined;
  set(appSessionId: string, key: string): void;
  delete(appSessionId: string): void;
}

/** Keys kept in this process only (`ask`, the demo: one process per session). */
export function keysInMemory(): SessionKeys {
  const m = new Map<string, string>();
  return { get: (s) => m.get(s), set: (s, k) => void m.set(s, k), delete: (s) => void m.delete(s) };
}

export class Asker {
  private readonly link: ServiceLink;
  constructor(readonly info: ServiceInfo, private readonly keys: SessionKeys = keysInMemory()) { this.link = new ServiceLink(info); }

  /** The session's own key, for the calls that need it (the run's ask key only registers). */
  private keyOf(appSessionId: string): string {
    const key = this.keys.get(appSessionId);
    if (!key) throw new ServiceError(`session ${appSessionId} is not registered here (no session key)`, 0);
    return key;
  }

  /** Whether this asker holds the session's key (it registered it, here or in an earlier hook). */
  knows(appSessionId: string): boolean {
    return this.keys.get(appSessionId) !== undefined;
  }

  /**
   * Registers (or refreshes) the live session, asking `card` in the same call. With the session's
   * key when one is kept; a service that no longer knows it (it restarted) refuses the key, and
   * the session registers anew with the run's ask key: one more call, only then.
   */
  async register(s: SessionInfo, card?: AskedCard, signal?: AbortSignal): Promise<Registered> {
    const body: SessionRegistration = { ...s, ...(card ? { card } : {}) };
    const o = { ...(card ? { timeoutMs: ASK_TIMEOUT_MS } : {}), ...(signal ? { signal } : {}) };
    const kept = this.keys.get(s.appSessionId);
    let r: Registered;
    try {
      r = await this.link.call<Registered>('POST', '/_ask/sessions', body, { ...o, key: kept ?? this.info.askKey });
    } catch (e) {
      if (!(kept && e instanceof ServiceError && e.status === 401)) throw e;
      this.keys.delete(s.appSessionId);
      r = await this.link.call<Registered>('POST', '/_ask/sessions', body, { ...o, key: this.info.askKey });
    }
    this.keys.set(s.appSessionId, r.sessionKey);
    return r;
  }

  async end(appSessionId: string): Promise<SessionEnded> {
    const r = await this.link.call<SessionEnded>('DELETE', `/_ask/sessions/${encodeURIComponent(appSessionId)}`, undefined, { key: this.keyOf(appSessionId) });
    this.keys.delete(appSessionId);
    return r;
  }

  /** The person went on in the terminal: the session's open cards asked for `reasons` (all without) are withdrawn. */
  withdrawFor(appSessionId: string, reasons?: string[]): Promise<Withdrawn> {
    return this.link.call('POST', `/_ask/sessions/${encodeURIComponent(appSessionId)}/withdraw`, reasons ? { reasons } : {}, { key: this.keyOf(appSessionId) });
  }

  /** A card in a session registered before (`ask`'s and the demo's next cards). */
  ask(appSessionId: string, card: AskedCard): Promise<AskedCardState> {
    return this.link.call('POST', '/_ask/cards', { appSessionId, ...card }, { timeoutMs: ASK_TIMEOUT_MS, key: this.keyOf(appSessionId) });
  }

  /**
   * Waits until the card hears something, closes, or `deadline` (ms since the epoch) passes, in
   * long polls of at most 25 s; with `pickup`, what it hears is picked up in the same call. The
   * service holds the last poll on while an answer is in its hold (at most 5 s): an answer given
   * before the card is withdrawn reaches the asker (decisions.md "#53/#52: the asking contract").
   */
  async wait(appSessionId: string, cardId: string, deadline: number, o: { signal?: AbortSignal; pickup?: boolean; seen?: number } = {}): Promise<WaitResult> {
    const key = this.keyOf(appSessionId);
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0 || o.signal?.aborted) return { kind: 'timeout' };
      const wait = Math.min(left, ASK_WAIT_MAX_MS);
      const r = await this.link.call<HeardAnswer>('GET',
        `/_ask/cards/${encodeURIComponent(cardId)}/heard?seen=${o.seen ?? 0}&wait=${Math.floor(wait)}${o.pickup ? '&pickup=1' : ''}`, undefined,
        { timeoutMs: wait + HOLD_MARGIN_MS + 5_000, key, ...(o.signal ? { signal: o.signal } : {}) });
      if (r.heard.length > 0) return { kind: 'heard', heard: r.heard, pickedUp: r.pickedUp === true };
      if (r.status === 'done') return { kind: 'closed', card: r };
    }
  }

  pickup(appSessionId: string, cardId: string): Promise<AskedCardState> {
    return this.link.call('POST', `/_ask/cards/${encodeURIComponent(cardId)}/pickup`, undefined, { key: this.keyOf(appSessionId) });
  }

  withdraw(appSessionId: string, cardId: string): Promise<AskedCardState> {
    return this.link.call('POST', `/_ask/cards/${encodeURIComponent(cardId)}/withdraw`, undefined, { key: this.keyOf(appSessionId) });
  }
}
