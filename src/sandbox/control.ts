// The sandbox's control surface under /_sandbox/ (DESIGN "The sandbox's control surface"), except
// computers, apps and device approval, which the sign-in side registers. JSON in and out; each
// answer is the object made or changed. Refusals: `{code, detail}` with 400, 404 or 409.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { KNOWN_APPS } from '../api/constants';
import type { Clock, SandboxContext } from './context';
import type { Faults } from './faults';
import type { Asking } from './asking';
import { iso, newId } from './ids';
import { HOLD_MS, isHoldMs, type Cards } from './lifecycle';
import { cardInputOf } from './card-input';
import type { Notices } from './notices';
import type { Received } from './received';
import type { SandboxState, WebhookRec } from './state';
import { seedDone } from './seed-done';
import type { Sessions } from './sessions';
import { isObject, PATTERNS } from './validate';
import { appName, wholeCard, type MachineNames } from './wire';

/** The most one clock advance moves (ten years), and the last instant an ISO time can name (9999-12-31T23:59:59.999Z). */
const MAX_ADVANCE_MS = 10 * 366 * 24 * 3600_000;
const LAST_MS = 253_402_300_799_999;

export interface ControlDeps {
  ctx: SandboxContext;
  state: SandboxState;
  cards: Cards;
  /** Sessions, heard, pickup and withdraw: the same implementation /_ask calls. */
  asking: Asking;
  /** Assistants, agents and live sessions: the same writer /_ask calls. */
  sessions: Sessions;
  notices: Notices;
  faults: Faults;
  received: Received;
  clock: Clock;
  machines: MachineNames;
  reset(): Promise<void>;
}

function fail(reply: FastifyReply, status: number, detail: string) {
  const code = status === 404 ? 'not_found' : status === 409 ? 'conflict' : 'invalid';
  return reply.code(status).send({ code, detail });
}

const str = (v: unknown): v is string => typeof v === 'string' && v !== '';

export function registerControl(app: FastifyInstance, d: ControlDeps): void {
  const { state, cards } = d;
  const hookView = (req: FastifyRequest, h: WebhookRec) => ({
    id: h.id,
    name: h.name,
    area: h.area,
    url: `${d.ctx.baseUrl(req)}/in/${h.token}`,
    paused: h.paused,
    counts: { ...h.counts },
  });

  // ---- assistants, agents, live sessions -----------------------------------------------------

  app.post('/_sandbox/assistants', async (req, reply) => {
    const b = req.body;
    if (!isObject(b) || !str(b.name)) return fail(reply, 400, 'name is required');
    if (!(KNOWN_APPS as readonly string[]).includes(b.app as string) || b.app === 'webhook') return fail(reply, 400, 'app must be an assistant app of the enum');
    if (!str(b.machineId) || !d.machines(b.machineId)) return fail(reply, 400, 'machineId must name a computer made with POST /_sandbox/machines');
    const rec = d.sessions.addAssistant({ name: b.name, app: b.app as string, machineId: b.machineId, ...(str(b.hears) ? { hears: b.hears } : {}) });
    return { ...rec, appName: appName(rec.app), createdAt: iso(rec.createdAt) };
  });

  app.post('/_sandbox/agents', async (req, reply) => {
    const b = req.body;
    if (!isObject(b) || !str(b.name)) return fail(reply, 400, 'name is required');
    if (!str(b.assistantId) || !state.assistants.has(b.assistantId)) return fail(reply, 400, 'assistantId must name an assistant');
    const rec = d.sessions.addAgent(b.assistantId, b.name);
    return { ...rec, createdAt: iso(rec.createdAt) };
  });

  app.post('/_sandbox/sessions', async (req, reply) => {
    const b = req.body;
    if (!isObject(b)) return fail(reply, 400, 'body must be a JSON object');
    const agent = str(b.agentId) ? state.agents.get(b.agentId) : undefined;
    if (!agent) return fail(reply, 400, 'agentId must name an agent');
    if (typeof b.cwd !== 'string') return fail(reply, 400, 'cwd is required');
    if (b.terminal !== undefined && !isObject(b.terminal)) return fail(reply, 400, 'terminal must be {pid?, tty?, program?}');
    const t = (b.terminal ?? {}) as Record<string, unknown>;
    const terminal = {
      ...(Number.isInteger(t.pid) ? { pid: t.pid as number } : {}),
      ...(typeof t.tty === 'string' ? { tty: t.tty } : {}),
      ...(typeof t.program === 'string' ? { program: t.program } : {}),
    };
    const appSessionId = str(b.appSessionId) ? b.appSessionId : newId('ses');
    // The same appSessionId again refreshes it.
    const { session } = d.sessions.live(agent, appSessionId, b.cwd, b.terminal !== undefined ? terminal : undefined);
    return { ...session, id: appSessionId, liveAt: iso(session.liveAt) };
  });

  app.delete('/_sandbox/sessions/:appSessionId', async (req, reply) => {
    const appSessionId = (req.params as { appSessionId: string }).appSessionId;
    const { ended, withdrawn } = d.asking.end(appSessionId);
    if (!ended) return fail(reply, 404, `no live session ${appSessionId}`);
    return { id: appSessionId, appSessionId, deleted: true, withdrawn };
  });

  // ---- cards ---------------------------------------------------------------------------------

  app.post('/_sandbox/cards', async (req, reply) => {
    const b = req.body;
    if (!isObject(b)) return fail(reply, 400, 'body must be a JSON object');
    if (!str(b.agentId) || !state.agents.has(b.agentId)) return fail(reply, 400, 'agentId must name an agent');
    if (!str(b.kind)) return fail(reply, 400, 'kind is required');
    if (typeof b.title !== 'string') return fail(reply, 400, 'title is required');
    const opts = b.options;
    if (opts !== undefined && !(Array.isArray(opts) && opts.every((o) => isObject(o) && typeof o.id === 'string' && typeof o.label === 'string'))) {
      return fail(reply, 400, 'options must be [{id, label}]');
    }
    if (b.area !== undefined && !(isObject(b.area) && typeof b.area.id === 'string' && PATTERNS.area.test(b.area.id) && typeof b.area.name === 'string')) {
      return fail(reply, 400, 'area must be {id: prj_..., name}');
    }
    if (b.threadId !== undefined && !(typeof b.threadId === 'string' && PATTERNS.card.test(b.threadId))) return fail(reply, 400, 'threadId must be req_...');
    const known = new Set(['agentId', 'kind', 'title', 'summary', 'options', 'recommendedIds', 'urgency', 'blocking', 'highStakes', 'area', 'multi', 'asks', 'steps', 'threadId']);
    const extra: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(b)) if (!known.has(k)) extra[k] = v;
    const input = cardInputOf(b, b.agentId, extra);
    const card = cards.create(input);
    return wholeCard(card, state, d.ctx.baseUrl(req), d.machines);
  });

  const cardOr404 = (req: FastifyRequest, reply: FastifyReply) => {
    const id = (req.params as { id: string }).id;
    const card = state.cards.get(id);
    if (!card) void fail(reply, 404, `no card ${id}`);
    return card;
  };

  app.get('/_sandbox/cards/:id', async (req, reply) => {
    const card = cardOr404(req, reply);
    if (!card) return reply;
    return { ...wholeCard(card, state, d.ctx.baseUrl(req), d.machines), helperCanSee: cards.helperCanSee(card), ...(card.laterAsked ? { laterAsked: card.laterAsked } : {}) };
  });

  app.get('/_sandbox/cards/:id/heard', async (req, reply) => {
    const card = cardOr404(req, reply);
    if (!card) return reply;
    return { id: card.id, heard: d.asking.heard(card) };
  });

  const cardAction = (path: string, act: (card: NonNullable<ReturnType<typeof cardOr404>>, body: unknown) => string | null) => {
    app.post(`/_sandbox/cards/:id/${path}`, async (req, reply) => {
      const card = cardOr404(req, reply);
      if (!card) return reply;
      const problem = act(card, req.body);
      if (problem) return fail(reply, problem.startsWith('bad:') ? 400 : 409, problem.replace(/^bad:/, ''));
      return wholeCard(card, state, d.ctx.baseUrl(req), d.machines);
    });
  };
  cardAction('pickup', (card) => d.asking.pickup(card));
  cardAction('withdraw', (card) => d.asking.withdraw(card));
  cardAction('helper-answer', (card, body) => (isObject(body) ? cards.helperAnswer(card, body) : 'bad:body must be an answer object'));
  cardAction('area', (card, body) => {
    if (!(isObject(body) && typeof body.id === 'string' && PATTERNS.area.test(body.id) && typeof body.name === 'string')) return 'bad:body must be {id: prj_..., name}';
    cards.moveArea(card, { id: body.id, name: body.name });
    return null;
  });

  /** Many done cards at once, with their histories (seed-done.ts): the Answers view's tests and bench. */
  app.post('/_sandbox/seed/done', async (req, reply) => {
    const b = req.body;
    if (!isObject(b)) return fail(reply, 400, 'body must be a JSON object');
    const count = b.count;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 5000) return fail(reply, 400, 'count must be an integer from 1 to 5000');
    const days = b.days ?? 30;
    if (typeof days !== 'number' || !(days > 0 && days <= 30)) return fail(reply, 400, 'days must be a number above 0, at most 30');
    const machine = str(b.machineId) ? d.machines(b.machineId) : undefined;
    if (!machine) return fail(reply, 400, 'machineId must name a computer made with POST /_sandbox/machines');
    const area = b.area;
    if (area !== undefined && !(isObject(area) && typeof area.id === 'string' && /^prj_[A-Za-z0-9-]+$/.test(area.id) && typeof area.name === 'string' && area.name.length <= 200)) {
      return fail(reply, 400, 'area must be {id: "prj_...", name}');
    }
    return seedDone(state, d.sessions, d.notices, d.clock.now(), { count, days, machine: { id: machine.id, name: machine.name }, ...(area ? { area: { id: area.id as string, name: area.name as string } } : {}) });
  });

  /** What a helper assistant can see: delegated to it, past the hold. */
  app.get('/_sandbox/assistants/:id/helper-cards', async (req) => {
    const id = (req.params as { id: string }).id;
    const list = [...state.cards.live()].filter((c) => c.delegation?.assistantId === id && cards.helperCanSee(c));
    return { cards: list.map((c) => wholeCard(c, state, d.ctx.baseUrl(req), d.machines)) };
  });

  // ---- webhooks ------------------------------------------------------------------------------

  app.post('/_sandbox/webhooks', async (req, reply) => {
    const b = req.body;
    if (!isObject(b) || !str(b.name)) return fail(reply, 400, 'name is required');
    if (!(isObject(b.area) && typeof b.area.id === 'string' && PATTERNS.area.test(b.area.id) && typeof b.area.name === 'string')) {
      return fail(reply, 400, 'area must be {id: prj_..., name}');
    }
    const hook = d.notices.createWebhook(b.name, { id: b.area.id, name: b.area.name });
    return hookView(req, hook);
  });

  const hookOr404 = (req: FastifyRequest, reply: FastifyReply) => {
    const id = (req.params as { id: string }).id;
    const hook = state.webhooks.get(id);
    if (!hook) void fail(reply, 404, `no webhook ${id}`);
    return hook;
  };
  app.get('/_sandbox/webhooks/:id', async (req, reply) => {
    const hook = hookOr404(req, reply);
    return hook ? hookView(req, hook) : reply;
  });
  for (const [path, act] of [
    ['pause', (h: WebhookRec) => { h.paused = true; }],
    ['resume', (h: WebhookRec) => { h.paused = false; }],
    // The old address stops at once.
    ['replace', (h: WebhookRec) => { h.token = newId('in').slice(3); }],
  ] as const) {
    app.post(`/_sandbox/webhooks/:id/${path}`, async (req, reply) => {
      const hook = hookOr404(req, reply);
      if (!hook) return reply;
      act(hook);
      return hookView(req, hook);
    });
  }
  app.delete('/_sandbox/webhooks/:id', async (req, reply) => {
    const hook = hookOr404(req, reply);
    if (!hook) return reply;
    state.webhooks.delete(hook.id);
    return { id: hook.id, deleted: true };
  });

  // ---- clock, hold, faults, presence, reset --------------------------------------------------------

  app.get('/_sandbox/clock', async () => ({ now: iso(d.clock.now()), ms: d.clock.now(), manual: typeof d.clock.advance === 'function' }));
  app.post('/_sandbox/clock/advance', async (req, reply) => {
    const b = req.body;
    if (!d.clock.advance) return fail(reply, 409, 'the sandbox runs on real time; start it with --manual-clock');
    // Bounded (#37): 1e300 moved the clock past any date, and every later answer failed to write its time.
    if (!isObject(b) || !Number.isFinite(b.ms) || (b.ms as number) < 0 || (b.ms as number) > MAX_ADVANCE_MS || d.clock.now() + (b.ms as number) > LAST_MS) {
      return fail(reply, 400, `ms must be a number of milliseconds from 0 to ${MAX_ADVANCE_MS} (ten years), and the clock stay before the year 10000`);
    }
    const now = d.clock.advance(b.ms as number);
    return { now: iso(now), ms: now };
  });

  // The real clock forward at once (a test of the end of Later need not wait the minute).
  app.post('/_sandbox/clock/jump', async (req, reply) => {
    const b = req.body;
    if (!d.clock.jump) return fail(reply, 409, 'the sandbox runs on a manual clock; move it with /_sandbox/clock/advance');
    if (!isObject(b) || !Number.isFinite(b.ms) || (b.ms as number) < 0) return fail(reply, 400, 'ms must be a non-negative number');
    const now = d.clock.jump(b.ms as number);
    return { now: iso(now), ms: now };
  });

  // A test that is not about the hold asks for a shorter one; the client follows `undoUntil`.
  app.get('/_sandbox/hold', async () => ({ ms: cards.hold() }));
  app.post('/_sandbox/hold', async (req, reply) => {
    const b = req.body;
    if (!isObject(b) || !isHoldMs(b.ms)) return fail(reply, 400, `ms must be a whole number of milliseconds from 0 to ${HOLD_MS}`);
    cards.setHold(b.ms);
    return { ms: cards.hold() };
  });

  app.post('/_sandbox/faults', async (req, reply) => {
    const f = d.faults.add(req.body);
    if (typeof f === 'string') return fail(reply, 400, f);
    return f;
  });
  app.get('/_sandbox/faults', async () => ({ faults: d.faults.all() }));
  // Responses held by a delayMs fault finish now.
  app.post('/_sandbox/faults/release', async () => ({ released: d.faults.release() }));
  app.delete('/_sandbox/faults', async () => {
    d.faults.reset();
    return { faults: [] };
  });

  app.get('/_sandbox/received', async () => ({ received: d.received.all().map((r) => ({ ...r, at: iso(r.at) })) }));

  app.get('/_sandbox/presence', async () => {
    const now = d.clock.now();
    return {
      here: state.presenceUntil > now,
      at: state.lastPresenceAt === null ? null : iso(state.lastPresenceAt),
      until: state.presenceUntil > now ? iso(state.presenceUntil) : null,
      lastPings: state.presence.slice(-50).map((p) => ({ ...p, at: iso(p.at) })),
    };
  });

  app.get('/_sandbox/changes', async () => ({
    changes: state.changes.map((c) => ({ seq: c.seq, type: c.type, cardId: c.cardId, at: iso(c.at) })),
  }));

  app.post('/_sandbox/reset', async () => {
    await d.reset();
    return { ok: true, now: iso(d.clock.now()) };
  });
}
