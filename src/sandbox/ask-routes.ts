// The asking surface, /_ask/...: what an assistant on this computer may do, and nothing more. The
// hook bridge, `ask` and the demo assistant (src/bridge) use it with the run's ask key, which the
// sandbox announces in local-service.json. It registers live sessions, asks cards, waits for what
// the card's assistant hears, picks up and withdraws. It cannot answer, undo, write as the person,
// put off, hand over, approve a sign-in, or touch the clock, faults or reset: a key that lets an
// assistant ask must never let it answer its own card (docs/security.md).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { KNOWN_APPS } from '../api/constants';
import type { Clock } from './context';
import { iso, newId } from './ids';
import type { Cards } from './lifecycle';
import { cardInputOf } from './card-input';
import type { CardRec, SandboxState } from './state';
import { isObject } from './validate';

export interface AskDeps {
  state: SandboxState;
  cards: Cards;
  clock: Clock;
  askKey: string;
  /** The computer the assistants run on: the one named, when the sandbox knows it, else this run's newest. */
  machineFor(named: string | undefined): string | undefined;
  /** Runs due timed work (a hold that ended) before a wait looks again. */
  runDue(): void;
}

/** The longest a wait holds: like the feed's 25 s, so no proxy or idle timeout cuts it. */
export const MAX_WAIT_MS = 25_000;
const POLL_MS = 20;
const MAX_TEXT = 10_000;

const str = (v: unknown): v is string => typeof v === 'string' && v !== '';

function keyMatches(header: string | undefined, key: string): boolean {
  const m = /^Bearer (\S+)$/.exec(header ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]!);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

function fail(reply: FastifyReply, status: number, detail: string) {
  const code = status === 401 ? 'unauthorized' : status === 404 ? 'not_found' : status === 409 ? 'conflict' : 'invalid';
  return reply.code(status).send({ code, detail });
}

/** Open: the person has not closed it (done is the only closed state). */
const open = (c: CardRec) => c.status !== 'done';

function cardView(c: CardRec) {
  return {
    id: c.id, version: c.version, status: c.status, turn: c.turn,
    ...(c.closedBy ? { closedBy: c.closedBy } : {}),
    ...(c.delegation ? { delegated: { mode: c.delegation.mode } } : {}),
    ...(c.until !== undefined && c.status === 'snoozed' ? { until: iso(c.until) } : {}),
  };
}

export function registerAsk(app: FastifyInstance, d: AskDeps): void {
  const { state, cards } = d;

  void app.register(async (scope) => {
    scope.addHook('onRequest', async (req, reply) => {
      // A browser page never asks: a request that carries an Origin is another site's.
      if (req.headers.origin !== undefined) return fail(reply, 403, 'Requests from a web page are refused here.');
      if (!keyMatches(req.headers.authorization, d.askKey)) {
        reply.header('WWW-Authenticate', 'Bearer realm="sandbox-ask"');
        return fail(reply, 401, 'Asking needs this run\'s ask key (local-service.json): Authorization: Bearer <key>.');
      }
      return undefined;
    });

    /** Registers (or refreshes) a live session; its assistant and agent are made on first use. */
    scope.post('/_ask/sessions', async (req, reply) => {
      const b = req.body;
      if (!isObject(b)) return fail(reply, 400, 'body must be a JSON object');
      if (!(KNOWN_APPS as readonly string[]).includes(b.app as string) || b.app === 'webhook') return fail(reply, 400, 'app must be an assistant app of the enum');
      if (!str(b.sessionId) || b.sessionId.length > 200) return fail(reply, 400, 'sessionId is required (1 to 200 characters)');
      if (typeof b.cwd !== 'string') return fail(reply, 400, 'cwd is required');
      const machineId = d.machineFor(str(b.machineId) ? b.machineId : undefined);
      if (!machineId) return fail(reply, 409, 'this computer is not set up with the sandbox yet (no computer registered)');
      const name = str(b.name) ? b.name.slice(0, 100) : b.app as string;
      const agentName = str(b.agent) ? b.agent.slice(0, 100) : 'main';
      const now = d.clock.now();
      let assistant = [...state.assistants.values()].find((a) => a.app === b.app && a.machineId === machineId && a.name === name);
      if (!assistant) {
        assistant = { id: newId('con'), name, app: b.app as string, machineId, hears: 'while-working', createdAt: now };
        state.assistants.set(assistant.id, assistant);
      }
      const assistantId = assistant.id;
      let agent = [...state.agents.values()].find((a) => a.assistantId === assistantId && a.name === agentName);
      if (!agent) {
        agent = { id: newId('agt'), assistantId, name: agentName, liveAt: null, createdAt: now };
        state.agents.set(agent.id, agent);
      }
      const t = isObject(b.terminal) ? b.terminal : {};
      const terminal = {
        ...(Number.isInteger(t.pid) ? { pid: t.pid as number } : {}),
        ...(typeof t.tty === 'string' ? { tty: t.tty } : {}),
        ...(typeof t.program === 'string' ? { program: t.program } : {}),
      };
      const existing = state.sessions.get(b.sessionId);
      if (existing && existing.agentId !== agent.id) return fail(reply, 409, `session ${b.sessionId} belongs to another assistant`);
      state.sessions.set(b.sessionId, { appSessionId: b.sessionId, agentId: agent.id, cwd: b.cwd, terminal, liveAt: now });
      agent.liveAt = now;
      return { assistantId, agentId: agent.id, appSessionId: b.sessionId, liveAt: iso(now), new: existing === undefined };
    });

    const sessionCards = (appSessionId: string) => [...state.cards.values()].filter((c) => c.appSessionId === appSessionId && open(c));

    /** The session ended: its open cards are withdrawn and it leaves the live list. */
    scope.delete('/_ask/sessions/:appSessionId', async (req) => {
      const appSessionId = (req.params as { appSessionId: string }).appSessionId;
      const withdrawn = sessionCards(appSessionId).map((c) => (cards.withdraw(c), c.id));
      const rec = state.sessions.get(appSessionId);
      if (rec) {
        state.sessions.delete(appSessionId);
        const agent = state.agents.get(rec.agentId);
        if (agent) agent.liveAt = d.clock.now();
      }
      return { appSessionId, ended: rec !== undefined, withdrawn };
    });

    /**
     * The person went on in the terminal itself (typed, or the CLI ran on): the session's open
     * cards of these `reasons` are withdrawn (`reasons` matches what each card was asked for).
     */
    scope.post('/_ask/sessions/:appSessionId/settle', async (req, reply) => {
      const appSessionId = (req.params as { appSessionId: string }).appSessionId;
      const b = req.body ?? {};
      if (!isObject(b) || (b.reasons !== undefined && !(Array.isArray(b.reasons) && b.reasons.every(str)))) return fail(reply, 400, 'reasons must be a list of strings');
      const reasons = b.reasons as string[] | undefined;
      const withdrawn = sessionCards(appSessionId).filter((c) => !reasons || reasons.includes(c.reason ?? '')).map((c) => (cards.withdraw(c), c.id));
      return { appSessionId, withdrawn };
    });

    scope.post('/_ask/cards', async (req, reply) => {
      const b = req.body;
      if (!isObject(b)) return fail(reply, 400, 'body must be a JSON object');
      if (!str(b.sessionId)) return fail(reply, 400, 'sessionId is required');
      const session = state.sessions.get(b.sessionId);
      if (!session) return fail(reply, 409, `no live session ${b.sessionId}: register it first (POST /_ask/sessions)`);
      if (!str(b.kind)) return fail(reply, 400, 'kind is required');
      if (typeof b.title !== 'string' || b.title.length > MAX_TEXT) return fail(reply, 400, 'title is required (at most 10,000 characters)');
      if (b.summary !== undefined && (typeof b.summary !== 'string' || b.summary.length > MAX_TEXT)) return fail(reply, 400, 'summary must be text of at most 10,000 characters');
      const opts = b.options;
      if (opts !== undefined && !(Array.isArray(opts) && opts.length <= 50 && opts.every((o) => isObject(o) && str(o.id) && typeof o.label === 'string'))) {
        return fail(reply, 400, 'options must be [{id, label}] (at most 50)');
      }
      const asks = b.asks;
      if (asks !== undefined && !(Array.isArray(asks) && asks.length <= 20 && asks.every((a) => isObject(a) && str(a.id) && typeof a.title === 'string'))) {
        return fail(reply, 400, 'asks must be [{id, title, options?}] (at most 20)');
      }
      const extra: Record<string, unknown> = {};
      if (isObject(b.fields)) for (const [k, v] of Object.entries(b.fields)) extra[k] = v;
      // No area or thread from an assistant here: its cards are its own session's.
      const { area: _area, threadId: _thread, settles: _settles, ...fields } = b;
      const input = cardInputOf(fields, session.agentId, extra);
      // What the new card ends (`settles`: reasons): the CLI asking again means it went on.
      if (Array.isArray(b.settles) && b.settles.every(str)) {
        for (const c of sessionCards(b.sessionId)) if ((b.settles as string[]).includes(c.reason ?? '')) cards.withdraw(c);
      }
      const card = cards.create(input);
      card.appSessionId = b.sessionId;
      if (str(b.reason)) card.reason = b.reason;
      return cardView(card);
    });

    const askedCard = (req: FastifyRequest, reply: FastifyReply) => {
      const id = (req.params as { id: string }).id;
      const card = state.cards.get(id);
      // Only cards asked through this surface: an assistant cannot close what another asked.
      if (!card || card.appSessionId === undefined) { void fail(reply, 404, `no card ${id} asked here`); return undefined; }
      return card;
    };

    /**
     * Waits until the card's assistant hears something past `seen` (an answer after its hold,
     * words, a helper's answer) or the card closes, at most `wait` ms (25 s); then what it heard.
     */
    scope.get('/_ask/cards/:id/heard', async (req, reply) => {
      const card = askedCard(req, reply);
      if (!card) return reply;
      const q = req.query as Record<string, string | undefined>;
      const seen = Number(q.seen ?? 0);
      const wait = Math.min(Number(q.wait ?? 0), MAX_WAIT_MS);
      if (!Number.isInteger(seen) || seen < 0 || !Number.isFinite(wait) || wait < 0) return fail(reply, 400, 'seen and wait must be non-negative integers');
      const until = Date.now() + wait;
      let gone = false;
      req.raw.on('close', () => { gone = true; });
      for (;;) {
        d.runDue();
        if (card.heard.length > seen || !open(card) || Date.now() >= until || gone) break;
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      return {
        ...cardView(card),
        heard: card.heard.slice(seen).map((h) => ({ at: iso(h.at), type: h.type, body: h.body })),
        seen: card.heard.length,
      };
    });

    scope.post('/_ask/cards/:id/pickup', async (req, reply) => {
      const card = askedCard(req, reply);
      if (!card) return reply;
      const problem = cards.pickup(card);
      return problem ? fail(reply, 409, problem) : cardView(card);
    });

    scope.post('/_ask/cards/:id/withdraw', async (req, reply) => {
      const card = askedCard(req, reply);
      if (!card) return reply;
      if (!open(card)) return cardView(card); // already closed: withdrawing again is no error
      cards.withdraw(card);
      return cardView(card);
    });
  });
}
