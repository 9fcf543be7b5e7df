// The Person API routes under /v1 (all but GET /v1/me, which the sign-in side serves): one
// handler per entry of the route table (v1-route-table.ts), which says the scope, the limit
// classes and the Idempotency-Key rule that guard() applies before the handler runs.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '../api/schemas';
import type { Grant, SandboxContext } from './context';
import type { ChangeFeed } from './feed';
import { IdempotencyStore } from './idempotency';
import { iso } from './ids';
import { resolveUntil } from './later-time';
import type { Cards } from './lifecycle';
import type { RateLimits } from './limits';
import { ProblemError } from './problems';
import { listCards, parseCardQuery } from './query';
import { onAnswerLeaving } from './request-state';
import type { Origin, SandboxState } from './state';
import type { Timeline } from './timeline';
import { isObject, intParam, invalid, MAX_TEXT, onlyKnown, PATTERNS, single, type FieldError } from './validate';
import { fastifyPath, V1_ROUTES, type V1Route } from './v1-route-table';
import { agentState, appName, cardUrl, lightCard, wholeCard, type MachineNames } from './wire';

export const PRESENCE_MS = 75_000;
export const MAX_WAIT_S = 25;

export interface V1Deps {
  ctx: SandboxContext;
  authenticate(req: FastifyRequest, scope: Scope | 'any'): Promise<Grant>;
  state: SandboxState;
  cards: Cards;
  feed: ChangeFeed;
  limits: RateLimits;
  idem: IdempotencyStore;
  timeline: Timeline;
  machines: MachineNames;
  /** One-time tickets into a card's page (person-sessions.ts). */
  pageTickets: { ticket(cardId: string): { ticket: string; expiresAt: number } };
  /** True once close() began: waiting feeds answer at once. */
  closing(): boolean;
}

/** What a route does once guard() let the call in. */
type Handler = (req: FastifyRequest, reply: FastifyReply, grant: Grant) => Promise<unknown>;

function originOf(grant: Grant): Origin {
  return {
    grantId: grant.id,
    appId: grant.appId,
    clientId: grant.clientId,
    appName: grant.appName,
    ...(grant.machine ? { machine: { id: grant.machine.id, name: grant.machine.name } } : {}),
  };
}

export function registerV1(app: FastifyInstance, d: V1Deps): void {
  const busyCards = new Set<string>();

  /** The common path of every /v1 route of this file: scope, limits, idempotency, the card's hold. */
  async function guard(req: FastifyRequest, reply: FastifyReply, rule: V1Route): Promise<{ grant: Grant; replayed: boolean }> {
    const grant = await d.authenticate(req, rule.scope);
    d.limits.take(grant.id, grant.userId, rule.classesWhenWaiting && waits(req) ? rule.classesWhenWaiting : rule.classes);
    if (rule.idempotency) {
      const key = IdempotencyStore.key(req.headers['idempotency-key'], rule.idempotency === 'required');
      if (key !== undefined) {
        const fp = IdempotencyStore.fingerprint(req.method, req.url.split('?')[0] ?? req.url, req.body ?? null);
        const stored = d.idem.begin(grant.id, key, fp);
        if (stored) {
          reply.code(stored.status).header('content-type', stored.contentType).header('Idempotent-Replayed', 'true');
          void reply.send(stored.body);
          return { grant, replayed: true };
        }
        onAnswerLeaving(req, (status, body, contentType) => {
          // A final answer is kept; a failure of the service or a limit is not (the retry may pass).
          if (status >= 500 || status === 429) d.idem.release(grant.id, key);
          else d.idem.finish(grant.id, key, { status, body, contentType });
        });
      }
    }
    if (rule.holdsCard) {
      const id = idParam(req);
      if (busyCards.has(id)) throw new ProblemError('conflict', 'Another change to this card is in progress; read it again.');
      busyCards.add(id);
      onAnswerLeaving(req, () => busyCards.delete(id));
    }
    return { grant, replayed: false };
  }

  const idParam = (req: FastifyRequest) => (req.params as { id: string }).id;

  const handlers: Record<string, Handler> = {
    // ---- reads -------------------------------------------------------------------------------

    listCards: async (req, reply, grant) => {
      const q = parseCardQuery(req.query as Record<string, unknown>);
      const { page, next } = listCards(d.state, d.cards, grant, q);
      const base = d.ctx.baseUrl(req);
      return {
        cards: page.map((c, i) => (i < q.whole ? wholeCard(c, d.state, base, d.machines) : lightCard(c))),
        next,
      };
    },

    getCard: async (req, reply, grant) => {
      const card = d.cards.find(grant, idParam(req));
      return { card: wholeCard(card, d.state, d.ctx.baseUrl(req), d.machines) };
    },

    cardPageLink: async (req, reply, grant) => {
      optionalBody(req.body);
      const card = d.cards.find(grant, idParam(req)); // out of reach: not_found, as any card route
      const { ticket, expiresAt } = d.pageTickets.ticket(card.id);
      // The service's own page, never an update card's notice link.
      return { url: `${cardUrl(d.ctx.baseUrl(req), card)}?ticket=${ticket}`, expiresAt: iso(expiresAt) };
    },

    listAssistants: async (req, reply, grant) => {
      const errors: FieldError[] = [];
      onlyKnown(req.query as Record<string, unknown>, [], errors);
      if (errors.length) throw invalid(errors);
      const now = d.cards.now();
      // Each table read once, grouped by owner: the list is read on every change of the assistants,
      // and a scan of every card for every agent grew with agents × cards.
      const agentsOf = groupBy(d.state.agents.values(), (g) => g.assistantId);
      const sessionsOf = groupBy(d.state.sessions.values(), (s) => s.agentId);
      const openOf = new Map<string, number>();
      for (const c of d.state.cards.live()) {
        if (c.agentId !== undefined && (c.status === 'pending' || c.status === 'snoozed') && c.turn === 'you') openOf.set(c.agentId, (openOf.get(c.agentId) ?? 0) + 1);
      }
      const list = [...d.state.assistants.values()]
        .filter((a) => d.cards.assistantInReach(grant, a.id))
        .map((a) => {
          const agents = (agentsOf.get(a.id) ?? []).map((g) => {
            const sessions = sessionsOf.get(g.id) ?? [];
            const openCards = openOf.get(g.id) ?? 0;
            return {
              id: g.id,
              name: g.name,
              state: agentState(g, sessions.length, now),
              liveAt: g.liveAt === null ? null : iso(g.liveAt),
              openCards,
              liveSessions: sessions.map((s) => ({
                appSessionId: s.appSessionId, cwd: s.cwd, liveAt: iso(s.liveAt), ...(s.terminal ? { terminal: s.terminal } : {}),
              })),
            };
          });
          const machine = d.machines(a.machineId) ?? { id: a.machineId, name: a.machineId };
          return { id: a.id, app: a.app, appName: appName(a.app), name: a.name, machine, hears: a.hears, agents };
        });
      // live first, then by name
      list.sort((x, y) => {
        const lx = x.agents.some((g) => g.state === 'live') ? 0 : 1;
        const ly = y.agents.some((g) => g.state === 'live') ? 0 : 1;
        return lx - ly || x.name.localeCompare(y.name) || x.id.localeCompare(y.id);
      });
      return { assistants: list };
    },

    listChanges: async (req, reply, grant) => {
      const q = req.query as Record<string, unknown>;
      const errors: FieldError[] = [];
      onlyKnown(q, ['after', 'wait', 'limit'], errors);
      const wait = intParam(q, 'wait', 0, MAX_WAIT_S, 0, errors);
      const limit = intParam(q, 'limit', 1, 100, 50, errors);
      const afterRaw = single(q, 'after', errors);
      let from = d.state.seq; // without `after` the feed starts from now
      if (afterRaw !== undefined) {
        const seq = decodeCursor(afterRaw);
        if (seq === undefined || seq > d.state.seq) errors.push({ field: 'after', reason: 'not a cursor of this feed; pass `cursor` back unchanged' });
        else from = seq;
      }
      if (errors.length) throw invalid(errors);

      let upTo = from;
      const collect = () => {
        upTo = d.state.seq;
        return d.feed.after(from).filter((ch) => {
          const card = d.state.cards.get(ch.cardId);
          return card !== undefined && d.cards.inReach(grant, card);
        });
      };
      let found = collect();
      if (found.length === 0 && wait > 0 && !d.closing()) {
        await new Promise<void>((resolve) => {
          let done = false;
          const key = `wait:${Math.random()}`;
          const finish = () => {
            if (done) return;
            done = true;
            stop();
            clearTimeout(timer);
            d.timeline.cancel(key);
            reply.raw.off('close', onClose);
            resolve();
          };
          const stop = d.feed.listen(() => {
            if (d.closing() || collect().length > 0) finish();
          });
          // The hold ends after `wait` seconds of real time or of the sandbox clock, whichever first.
          const timer = setTimeout(finish, wait * 1000);
          timer.unref();
          d.timeline.schedule(key, d.cards.now() + wait * 1000, finish);
          const onClose = () => finish();
          reply.raw.on('close', onClose);
        });
        found = collect();
      }
      const page = found.slice(0, limit);
      const last = page[page.length - 1];
      const more = found.length > limit;
      return {
        changes: page.map((c) => ({ type: c.type, cardId: c.cardId, at: iso(c.at) })),
        // Past every change looked at (those out of reach too), unless the page stopped early.
        cursor: encodeCursor(more && last ? last.seq : upTo),
        more,
      };
    },

    // ---- writes ------------------------------------------------------------------------------

    answerCard: async (req, reply, grant) => {
      const body = checkAnswerBody(req.body);
      return d.cards.answer(grant, originOf(grant), idParam(req), body);
    },

    undoAnswer: async (req, reply, grant) => {
      optionalBody(req.body);
      return d.cards.undo(grant, originOf(grant), idParam(req));
    },

    writeToAssistant: async (req, reply, grant) => {
      const body = checkMessageBody(req.body);
      return d.cards.message(grant, originOf(grant), idParam(req), body);
    },

    putInLater: async (req, reply, grant) => {
      const body = req.body;
      if (!isObject(body)) throw invalid([{ field: 'body', reason: 'a JSON object with `until` is required' }]);
      return d.cards.later(grant, originOf(grant), idParam(req), () => {
        const r = resolveUntil(body.until, body.timeZone, d.cards.now());
        if (!r.ok) throw invalid([{ field: r.field, reason: r.reason }]);
        return r.at;
      }, { until: body.until, timeZone: body.timeZone });
    },

    bringBack: async (req, reply, grant) => {
      optionalBody(req.body);
      return d.cards.back(grant, originOf(grant), idParam(req));
    },

    handOver: async (req, reply, grant) => {
      const body = checkDelegateBody(req.body);
      return d.cards.delegate(grant, originOf(grant), idParam(req), body);
    },

    takeBack: async (req, reply, grant) => {
      optionalBody(req.body);
      return d.cards.takeBack(grant, originOf(grant), idParam(req));
    },

    setPresence: async (req, reply, grant) => {
      const body = req.body;
      if (!isObject(body) || typeof body.here !== 'boolean') throw invalid([{ field: 'here', reason: 'required boolean' }]);
      const now = d.cards.now();
      d.state.presence.push({ at: now, here: body.here, grantId: grant.id, appId: grant.appId, ...(grant.machine ? { machineId: grant.machine.id } : {}) });
      if (d.state.presence.length > 200) d.state.presence.splice(0, d.state.presence.length - 200);
      d.state.lastPresenceAt = now;
      d.state.presenceUntil = body.here ? now + PRESENCE_MS : now;
      return reply.code(204).send();
    },
  };

  for (const route of V1_ROUTES) {
    if (route.servedByAuth) continue;
    const handle = handlers[route.operationId];
    if (!handle) throw new Error(`no handler for ${route.method} ${route.path}`);
    app.route({
      method: route.method,
      url: fastifyPath(route.path),
      handler: async (req, reply) => {
        const { grant, replayed } = await guard(req, reply, route);
        if (replayed) return reply;
        return handle(req, reply, grant);
      },
    });
  }
  const unused = Object.keys(handlers).filter((id) => !V1_ROUTES.some((r) => r.operationId === id));
  if (unused.length) throw new Error(`handlers without a route: ${unused.join(', ')}`);
}

/** GET /v1/changes with wait > 0 counts against the waits limit. */
function waits(req: FastifyRequest): boolean {
  const wait = (req.query as Record<string, unknown>).wait;
  return typeof wait === 'string' && /^\d+$/.test(wait) && Number(wait) > 0;
}

// ---- cursors and bodies ------------------------------------------------------------------------

export function encodeCursor(seq: number): string {
  return Buffer.from(`chg:${seq}`).toString('base64url');
}

export function decodeCursor(raw: string): number | undefined {
  if (raw.length < 1 || raw.length > 200) return undefined;
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const m = /^chg:(\d{1,15})$/.exec(text);
  return m ? Number(m[1]) : undefined;
}

function optionalBody(body: unknown): void {
  if (body !== undefined && body !== null && !isObject(body)) throw invalid([{ field: 'body', reason: 'must be a JSON object when given' }]);
}

function text(errors: FieldError[], field: string, v: unknown, required: boolean): void {
  if (v === undefined) {
    if (required) errors.push({ field, reason: 'required string' });
    return;
  }
  if (typeof v !== 'string') errors.push({ field, reason: 'must be a string' });
  else if (v.length > MAX_TEXT) errors.push({ field, reason: `at most ${MAX_TEXT} characters` });
}

function via(errors: FieldError[], v: unknown): void {
  if (v !== undefined && v !== 'text' && v !== 'voice') errors.push({ field: 'via', reason: 'text or voice' });
}

function checkAnswerBody(body: unknown): Record<string, unknown> {
  if (!isObject(body)) throw invalid([{ field: 'body', reason: 'a JSON object with `version` is required' }]);
  const errors: FieldError[] = [];
  if (!Number.isInteger(body.version) || (body.version as number) < 1) errors.push({ field: 'version', reason: 'required: the card version shown to the person' });
  if (body.choiceIds !== undefined && !(Array.isArray(body.choiceIds) && body.choiceIds.every((c) => typeof c === 'string'))) {
    errors.push({ field: 'choiceIds', reason: 'must be an array of option ids' });
  }
  if (body.approved !== undefined && typeof body.approved !== 'boolean') errors.push({ field: 'approved', reason: 'must be a boolean' });
  text(errors, 'text', body.text, false);
  if (body.note !== undefined) {
    if (!isObject(body.note)) errors.push({ field: 'note', reason: 'must be an object with `text`' });
    else text(errors, 'note.text', body.note.text, true);
  }
  via(errors, body.via);
  if (body.theyDecide !== undefined && body.theyDecide !== true) errors.push({ field: 'theyDecide', reason: 'only true' });
  if (body.answers !== undefined) {
    if (!isObject(body.answers)) errors.push({ field: 'answers', reason: 'must be a map of ask id to choice id or text' });
    else for (const [k, v] of Object.entries(body.answers)) text(errors, `answers.${k}`, v, true);
  }
  if (body.failedStep !== undefined && !Number.isInteger(body.failedStep)) errors.push({ field: 'failedStep', reason: 'must be an integer' });
  if (body.askId !== undefined && typeof body.askId !== 'string') errors.push({ field: 'askId', reason: 'must be a string' });
  if (errors.length) throw invalid(errors);
  return body;
}

function checkMessageBody(body: unknown): { body: string; via?: 'text' | 'voice' } {
  if (!isObject(body)) throw invalid([{ field: 'body', reason: 'a JSON object with `body` is required' }]);
  const errors: FieldError[] = [];
  text(errors, 'body', body.body, true);
  if (typeof body.body === 'string' && body.body.trim() === '') errors.push({ field: 'body', reason: 'must not be empty' });
  via(errors, body.via);
  if (errors.length) throw invalid(errors);
  return { body: body.body as string, ...(body.via !== undefined ? { via: body.via as 'text' | 'voice' } : {}) };
}

function checkDelegateBody(body: unknown): { to: { assistantId: string; agentId?: string }; mode: 'freely' | 'loop'; note?: string } {
  if (!isObject(body)) throw invalid([{ field: 'body', reason: 'a JSON object with `to` and `mode` is required' }]);
  const errors: FieldError[] = [];
  const to = body.to;
  if (!isObject(to)) errors.push({ field: 'to', reason: 'required: {assistantId, agentId?}' });
  else {
    if (typeof to.assistantId !== 'string' || !PATTERNS.assistant.test(to.assistantId)) errors.push({ field: 'to.assistantId', reason: 'required assistant id (con_...)' });
    if (to.agentId !== undefined && (typeof to.agentId !== 'string' || !PATTERNS.agent.test(to.agentId))) errors.push({ field: 'to.agentId', reason: 'an agent id (agt_...)' });
  }
  if (body.mode !== 'freely' && body.mode !== 'loop') errors.push({ field: 'mode', reason: 'required: freely or loop' });
  text(errors, 'note', body.note, false);
  if (errors.length) throw invalid(errors);
  const t = to as { assistantId: string; agentId?: string };
  return {
    to: { assistantId: t.assistantId, ...(t.agentId !== undefined ? { agentId: t.agentId } : {}) },
    mode: body.mode as 'freely' | 'loop',
    ...(body.note !== undefined ? { note: body.note as string } : {}),
  };
}

/** The records by `key`, each group in the order they came. */
function groupBy<T>(records: Iterable<T>, key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of records) {
    const k = key(r);
    const group = out.get(k);
    if (group) group.push(r); else out.set(k, [r]);
  }
  return out;
}
