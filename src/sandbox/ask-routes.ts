// The asking surface, /_ask/... (docs/ask-api.md): what an assistant on this computer may do, and
// nothing more. The hook bridge, `ask` and the demo assistant (src/bridge) use it. The run's ask
// key (local-service.json) only registers a session; the session's own key, given then, asks,
// waits, picks up and withdraws that session's cards and nothing else (#52 F9). It cannot answer,
// undo, write as the person, put off, hand over, approve a sign-in, or touch the clock, faults or
// reset: a key that lets an assistant ask must never let it answer its own card (docs/security.md).
// Bodies are checked against src/api/ask-schemas.ts, which names what an asker may set (#52 F5).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import { ASK_WAIT_MAX_MS } from '../api/constants';
import type {
  AskedCard} from '../api/ask-schemas';
import { ASKED_CARD_FIELDS, CardAskBody, SessionRegistration, WithdrawBody,
  type AskedCardState, type AskProblem, type HeardAnswer, type Registered, type SessionEnded, type Withdrawn,
} from '../api/ask-schemas';
import type { Asking } from './asking';
import { isOpen } from './asking';
import type { Clock } from './context';
import { iso } from './ids';
import { HOLD_MS, type Cards } from './lifecycle';
import { cardInputOf } from './card-input';
import type { Sessions } from './sessions';
import type { CardRec, SandboxState } from './state';
import { isObject } from './validate';

export interface AskDeps {
  state: SandboxState;
  cards: Cards;
  asking: Asking;
  /** Assistants, agents, live sessions and their keys: the one writer of them. */
  sessions: Sessions;
  clock: Clock;
  askKey: string;
  /** The computer the assistants run on: the one named, when the sandbox knows it, else this run's newest. */
  machineFor(named: string | undefined): string | undefined;
}

const STATUS: Record<AskProblem['code'], number> = { invalid: 400, unauthorized: 401, forbidden: 403, not_found: 404, conflict: 409 };

function fail(reply: FastifyReply, code: AskProblem['code'], detail: string, errors?: AskProblem['errors']) {
  const body: AskProblem = { code, detail, ...(errors ? { errors } : {}) };
  return reply.code(STATUS[code]).send(body);
}

/** The refusal of a body the schema does not allow: each field at fault named, with why. */
function refusal(reply: FastifyReply, body: unknown, issues: readonly z.core.$ZodIssue[], what: string) {
  const errors: { field: string; reason: string }[] = [];
  for (const i of issues) {
    if (i.code === 'unrecognized_keys') {
      for (const k of i.keys) {
        const field = [...i.path, k].join('.');
        errors.push({ field, reason: `not a field an asker may set (${what} takes ${ASKED_CARD_FIELDS.join(', ')}); what else a card holds is the service's` });
        // `fields` was once a bag of anything: name what it tried to set.
        const bag = k === 'fields' && isObject(body) ? (i.path.length ? undefined : body.fields) : undefined;
        if (isObject(bag)) for (const f of Object.keys(bag)) errors.push({ field: `fields.${f}`, reason: 'not a field an asker may set' });
      }
    } else errors.push({ field: i.path.join('.') || 'body', reason: i.message });
  }
  return fail(reply, 'invalid', errors.map((e) => `${e.field}: ${e.reason}`).join('; '), errors);
}

const bearer = (req: FastifyRequest): string | undefined => /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A card as its asker sees it. */
export function askedCardState(c: CardRec): AskedCardState {
  return {
    id: c.id, version: c.version, status: c.status, turn: c.turn,
    ...(c.closedBy ? { closedBy: c.closedBy } : {}),
    ...(c.delegation ? { delegated: { mode: c.delegation.mode } } : {}),
    ...(c.until !== undefined && c.status === 'snoozed' ? { until: iso(c.until) } : {}),
  };
}

/** The answer is in its hold (the person may still undo it): the assistant hears it when the hold ends. */
const inHold = (c: CardRec) => c.status === 'answered' && c.answer !== undefined && !c.answer.heard;

export function registerAsk(app: FastifyInstance, d: AskDeps): void {
  const { state, cards, asking, sessions } = d;

  void app.register(async (scope) => {
    scope.addHook('onRequest', async (req, reply) => {
      // A browser page never asks: a request that carries an Origin is another site's.
      if (req.headers.origin !== undefined) return fail(reply, 'forbidden', 'Requests from a web page are refused here.');
      const key = bearer(req);
      if (key === undefined || (!same(key, d.askKey) && sessions.sessionOfKey(key) === undefined)) {
        reply.header('WWW-Authenticate', 'Bearer realm="sandbox-ask"');
        return fail(reply, 'unauthorized', 'Asking needs this run\'s ask key (local-service.json) to register, then the session\'s own key: Authorization: Bearer <key>.');
      }
      return undefined;
    });

    /** The session the request's key is, or a refusal sent (the run's ask key only registers). */
    const sessionOf = (req: FastifyRequest, reply: FastifyReply): string | undefined => {
      const appSessionId = sessions.sessionOfKey(bearer(req) ?? '');
      if (appSessionId === undefined) void fail(reply, 'forbidden', 'The run\'s ask key only registers sessions; this needs the session\'s own key (`sessionKey` from POST /_ask/sessions).');
      return appSessionId;
    };

    /** Asks `card` in `appSessionId`: what it settles is withdrawn first, in the same step. */
    const askIn = (appSessionId: string, agentId: string, card: AskedCard): CardRec => {
      const { reason, settles, ...fields } = card;
      if (settles) asking.withdrawFor(appSessionId, settles);
      const rec = cards.create(cardInputOf(fields, agentId, {}));
      rec.appSessionId = appSessionId;
      if (reason) rec.reason = reason;
      return rec;
    };

    /**
     * Registers (or refreshes) a live session; its assistant and agent are made on first use.
     * With `card`, the card is asked in the same step.
     */
    scope.post('/_ask/sessions', async (req, reply) => {
      const parsed = SessionRegistration.safeParse(req.body);
      if (!parsed.success) return refusal(reply, req.body, parsed.error.issues, 'a session\'s card');
      const b = parsed.data;
      const key = bearer(req)!;
      const byAskKey = same(key, d.askKey);
      if (!byAskKey && sessions.sessionOfKey(key) !== b.appSessionId) return fail(reply, 'forbidden', `This key is another session's; session ${b.appSessionId} registers with its own key or, the first time, the run's ask key.`);
      if (byAskKey && sessions.hasKey(b.appSessionId)) return fail(reply, 'conflict', `Session ${b.appSessionId} is registered already; registering it again needs its own key (sessionKey).`);
      const machineId = d.machineFor(b.machineId);
      if (!machineId) return fail(reply, 'conflict', 'This computer is not set up with the sandbox yet (no computer registered).');
      const agent = sessions.agentFor(b.app, machineId, b.name ?? b.app, b.agent ?? 'main');
      const existing = state.sessions.get(b.appSessionId);
      if (existing && existing.agentId !== agent.id) return fail(reply, 'conflict', `Session ${b.appSessionId} belongs to another assistant.`);
      const { session, isNew } = sessions.live(agent, b.appSessionId, b.cwd, b.terminal);
      const card = b.card ? askIn(b.appSessionId, agent.id, b.card) : undefined;
      const out: Registered = {
        assistantId: agent.assistantId, agentId: agent.id, appSessionId: b.appSessionId, liveAt: iso(session.liveAt), new: isNew,
        // The run's ask key registers a session without a key: it gets one; its own key registers it again.
        sessionKey: byAskKey ? sessions.newKey(b.appSessionId) : key, ...(card ? { card: askedCardState(card) } : {}),
      };
      return out;
    });

    /** The session ended: its open cards are withdrawn and it leaves the live list. */
    scope.delete('/_ask/sessions/:appSessionId', async (req, reply) => {
      const appSessionId = sessionOf(req, reply);
      if (appSessionId === undefined) return reply;
      if ((req.params as { appSessionId: string }).appSessionId !== appSessionId) return fail(reply, 'forbidden', 'A session\'s key ends only its own session.');
      const out: SessionEnded = { appSessionId, ...asking.end(appSessionId) };
      return out;
    });

    /** The person went on in the terminal itself: the session's open cards of these `reasons` (or all) are withdrawn. */
    scope.post('/_ask/sessions/:appSessionId/withdraw', async (req, reply) => {
      const appSessionId = sessionOf(req, reply);
      if (appSessionId === undefined) return reply;
      if ((req.params as { appSessionId: string }).appSessionId !== appSessionId) return fail(reply, 'forbidden', 'A session\'s key withdraws only its own cards.');
      const parsed = WithdrawBody.safeParse(req.body ?? {});
      if (!parsed.success) return refusal(reply, req.body, parsed.error.issues, 'a withdrawal');
      const out: Withdrawn = { appSessionId, withdrawn: asking.withdrawFor(appSessionId, parsed.data.reasons) };
      return out;
    });

    scope.post('/_ask/cards', async (req, reply) => {
      const appSessionId = sessionOf(req, reply);
      if (appSessionId === undefined) return reply;
      const parsed = CardAskBody.safeParse(req.body);
      if (!parsed.success) return refusal(reply, req.body, parsed.error.issues, 'a card');
      const { appSessionId: named, ...card } = parsed.data;
      if (named !== appSessionId) return fail(reply, 'forbidden', 'A session\'s key asks only in its own session.');
      const session = state.sessions.get(appSessionId)!;
      return askedCardState(askIn(appSessionId, session.agentId, card));
    });

    /** The session's own card, or a refusal sent: another session's card is not found, as if there were none. */
    const ownCard = (req: FastifyRequest, reply: FastifyReply) => {
      const appSessionId = sessionOf(req, reply);
      if (appSessionId === undefined) return undefined;
      const id = (req.params as { id: string }).id;
      const card = state.cards.get(id);
      if (!card || card.appSessionId !== appSessionId) { void fail(reply, 'not_found', `No card ${id} asked in this session.`); return undefined; }
      return card;
    };

    /**
     * Waits until the card's assistant hears something past `seen` (an answer after its hold,
     * words, a helper's answer) or the card closes, at most `wait` ms (25 s); then what it heard.
     * A wait that ends while an answer is in its hold holds on until the hold ends (at most 5 s
     * more): an answer given before the card is withdrawn reaches the asker (#52 F8). `pickup=1`
     * picks up what it heard in the same step: one call, and no moment where it is heard but open.
     */
    scope.get('/_ask/cards/:id/heard', async (req, reply) => {
      const card = ownCard(req, reply);
      if (!card) return reply;
      const q = req.query as Record<string, string | undefined>;
      const seen = Number(q.seen ?? 0);
      const wait = Math.min(Number(q.wait ?? 0), ASK_WAIT_MAX_MS);
      if (!Number.isInteger(seen) || seen < 0 || !Number.isFinite(wait) || wait < 0) return fail(reply, 'invalid', 'seen and wait must be non-negative integers');
      if (q.pickup !== undefined && q.pickup !== '1' && q.pickup !== '0') return fail(reply, 'invalid', 'pickup is 1 or 0');
      let pickedUp = false;
      const onHeard = q.pickup === '1' ? () => { pickedUp = pickedUp || asking.pickup(card) === null; } : undefined;
      let w = asking.waitFor(card, seen, wait, onHeard);
      const gone = () => w.cancel();
      req.raw.on('close', gone);
      await w.done;
      if (!req.raw.destroyed && card.heard.length <= seen && inHold(card)) {
        w = asking.waitFor(card, seen, HOLD_MS + 1_000, onHeard);
        await w.done;
      }
      req.raw.off('close', gone);
      const out: HeardAnswer = {
        ...askedCardState(card),
        heard: asking.heard(card, seen).map(({ at, type, body }) => ({ at, type, body })),
        seen: card.heard.length,
        ...(onHeard ? { pickedUp } : {}),
      };
      return out;
    });

    scope.post('/_ask/cards/:id/pickup', async (req, reply) => {
      const card = ownCard(req, reply);
      if (!card) return reply;
      const problem = asking.pickup(card);
      return problem ? fail(reply, 'conflict', problem) : askedCardState(card);
    });

    scope.post('/_ask/cards/:id/withdraw', async (req, reply) => {
      const card = ownCard(req, reply);
      if (!card) return reply;
      if (isOpen(card)) asking.withdraw(card); // already closed: withdrawing again is no error
      return askedCardState(card);
    });
  });
}
