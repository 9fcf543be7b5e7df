// The assistants' side of a card, once: live sessions, what a card's assistant heard, the wait for
// it, pickup and withdraw. The asking surface (/_ask, ask-routes.ts) and the control surface
// (/_sandbox, control.ts) both call these; each route only checks who may call it. A session's
// own key (#52 F9) is kept here, beside the session it guards.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AskTerminal, Heard } from '../api/ask-schemas';
import type { Clock } from './context';
import type { ChangeFeed } from './feed';
import { iso, newId } from './ids';
import type { Cards } from './lifecycle';
import type { AgentRec, CardRec, HeardRec, SandboxState, SessionRec } from './state';

/** Open: the person has not closed it (done is the only closed state). */
export const isOpen = (c: CardRec): boolean => c.status !== 'done';

export class Asking {
  /** Each session's key, given at its first registration through /_ask (a control-made session has none). */
  private readonly keys = new Map<string, string>();

  constructor(
    private readonly state: SandboxState,
    private readonly cards: Cards,
    private readonly clock: Clock,
    private readonly feed: ChangeFeed,
  ) {}

  /** The assistant named `name` of `app` on the computer, and its agent `agentName`: made on first use. */
  agentFor(app: string, machineId: string, name: string, agentName: string): AgentRec {
    const now = this.clock.now();
    let assistant = [...this.state.assistants.values()].find((a) => a.app === app && a.machineId === machineId && a.name === name);
    if (!assistant) {
      assistant = { id: newId('con'), name, app, machineId, hears: 'while-working', createdAt: now };
      this.state.assistants.set(assistant.id, assistant);
    }
    const assistantId = assistant.id;
    let agent = [...this.state.agents.values()].find((a) => a.assistantId === assistantId && a.name === agentName);
    if (!agent) {
      agent = { id: newId('agt'), assistantId, name: agentName, liveAt: null, createdAt: now };
      this.state.agents.set(agent.id, agent);
    }
    return agent;
  }

  /** Registers (or refreshes) the live session `appSessionId` of `agent`. */
  live(agent: AgentRec, appSessionId: string, cwd: string, terminal: AskTerminal | undefined): { session: SessionRec; isNew: boolean } {
    const now = this.clock.now();
    const isNew = !this.state.sessions.has(appSessionId);
    // A key left from before (the session ended, the sandbox was reset) never carries over.
    if (isNew) this.keys.delete(appSessionId);
    const session: SessionRec = { appSessionId, agentId: agent.id, cwd, ...(terminal ? { terminal } : {}), liveAt: now };
    this.state.sessions.set(appSessionId, session);
    agent.liveAt = now;
    return { session, isNew };
  }

  /** The session's key; made when it has none (its first registration through /_ask). */
  keyOf(appSessionId: string): string {
    let key = this.keys.get(appSessionId);
    if (!key) {
      key = `ses_${randomBytes(24).toString('base64url')}`;
      this.keys.set(appSessionId, key);
    }
    return key;
  }

  /** Whether the session has a key of its own (it was registered through /_ask and is still live). */
  hasKey(appSessionId: string): boolean {
    return this.state.sessions.has(appSessionId) && this.keys.has(appSessionId);
  }

  /** The live session whose key `key` is, or undefined. */
  sessionOfKey(key: string): string | undefined {
    const given = Buffer.from(key);
    for (const [appSessionId, k] of this.keys) {
      const mine = Buffer.from(k);
      if (mine.length === given.length && timingSafeEqual(mine, given) && this.state.sessions.has(appSessionId)) return appSessionId;
    }
    return undefined;
  }

  /** The session ended: its open cards are withdrawn and it leaves the live list. */
  end(appSessionId: string): { ended: boolean; withdrawn: string[] } {
    const withdrawn = this.withdrawFor(appSessionId, undefined);
    const rec = this.state.sessions.get(appSessionId);
    this.keys.delete(appSessionId);
    if (!rec) return { ended: false, withdrawn };
    this.state.sessions.delete(appSessionId);
    const agent = this.state.agents.get(rec.agentId);
    if (agent) agent.liveAt = this.clock.now();
    return { ended: true, withdrawn };
  }

  /** The session's open cards asked for one of `reasons` (every open card without them). */
  openCards(appSessionId: string, reasons?: readonly string[]): CardRec[] {
    return [...this.state.cards.values()].filter((c) => c.appSessionId === appSessionId && isOpen(c) && (!reasons || reasons.includes(c.reason ?? '')));
  }

  /** The person went on in the terminal: the session's open cards of `reasons` are withdrawn. */
  withdrawFor(appSessionId: string, reasons: readonly string[] | undefined): string[] {
    return this.openCards(appSessionId, reasons).map((c) => (this.cards.withdraw(c), c.id));
  }

  /** What the card's assistant heard, from the `seen`-th on. */
  heard(card: CardRec, seen = 0): (Heard & { from?: HeardRec['from'] })[] {
    return card.heard.slice(seen).map((h) => ({ at: iso(h.at), type: h.type, body: h.body as Record<string, unknown>, ...(h.from ? { from: h.from } : {}) }));
  }

  /**
   * Resolves once the card heard something past `seen`, closed, `ms` passed, or `gone` was
   * called. It listens to the change feed (a hold's end is a change), never polls; `onHeard` runs
   * in the same step as the change that brought it (the wait's pickup: one call, no window).
   */
  waitFor(card: CardRec, seen: number, ms: number, onHeard?: () => void): { done: Promise<void>; cancel(): void } {
    let cancel = () => undefined as void;
    const done = new Promise<void>((resolve) => {
      const look = () => {
        if (card.heard.length > seen) onHeard?.();
        else if (isOpen(card)) return false;
        return true;
      };
      if (look() || ms <= 0) { resolve(); return; }
      const finish = () => { stop(); clearTimeout(timer); resolve(); };
      const stop = this.feed.listen(() => { if (look()) finish(); });
      const timer = setTimeout(finish, ms);
      timer.unref();
      cancel = finish;
    });
    return { done, cancel: () => cancel() };
  }

  /** The assistant picks the answer (or the words) up: the card is done. Null, or why not. */
  pickup(card: CardRec): string | null {
    return this.cards.pickup(card);
  }

  /** The assistant withdraws the card. Null, or why not (it is done already). */
  withdraw(card: CardRec): string | null {
    return this.cards.withdraw(card);
  }
}
