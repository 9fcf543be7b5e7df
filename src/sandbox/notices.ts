// The notice address `POST /in/<token>` (incoming-notices.md): a posted notice becomes an `update`
// card, repeats with the same dedupeKey count on the open card, `resolved` closes it, a paused
// webhook counts without showing, and Cloudflare's generic webhook payload is read as it is (DESIGN).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Clock } from './context';
import { newId } from './ids';
import type { Cards } from './lifecycle';
import type { CardRec, SandboxState, WebhookRec } from './state';

export const NOTICE_LIMITS = {
  perMinute: 60,
  openPerWebhook: 50,
  bodyBytes: 64 * 1024,
  title: 140,
  summary: 400,
  from: 40,
  dedupeKey: 255,
};

const SEVERITIES = ['critical', 'error', 'warning', 'info'];

/** Error answers of the notice address: `{ok: false, code, detail, errors?}` (shape not shown in the spec). */
function refuse(reply: FastifyReply, status: number, code: string, detail: string, errors?: { field: string; reason: string }[]) {
  return reply.code(status).send({ ok: false, code, detail, ...(errors ? { errors } : {}) });
}

/** Cuts over-long text to its limit, marking the cut with an ellipsis. */
export function shorten(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

interface Notice {
  title: string;
  summary?: string;
  link?: string;
  dedupeKey?: string;
  status: 'open' | 'resolved';
  severity?: string;
  from: string;
  worker?: string;
  occurrences?: number;
}

type Parsed = { ok: true; notice: Notice } | { ok: false; errors: { field: string; reason: string }[] };

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Cloudflare notifications' generic webhook: `alert_type` and `text`, no `title`. */
function parseCloudflare(b: Record<string, unknown>): Parsed {
  const text = typeof b.text === 'string' ? b.text : '';
  const lines = text.split(/\r?\n/);
  const first = (lines.shift() ?? '').trim();
  const rest = lines.join('\n').trim();
  const data = (typeof b.data === 'object' && b.data !== null ? b.data : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const link = str(data.url) ?? str(data.dashboard_url);
  const worker = str(data.script_name) ?? str(data.worker);
  const occ = data.occurrences;
  const title = first || str(b.name) || String(b.alert_type);
  return {
    ok: true,
    notice: {
      title: shorten(oneLine(title), NOTICE_LIMITS.title),
      ...(rest ? { summary: shorten(rest, NOTICE_LIMITS.summary) } : {}),
      ...(link && isHttpUrl(link) ? { link } : {}),
      ...(str(b.alert_correlation_id) ? { dedupeKey: shorten(String(b.alert_correlation_id), NOTICE_LIMITS.dedupeKey) } : {}),
      status: 'open', // an alert_event that ends the alert does not close the card: the person does
      severity: 'error',
      from: 'Cloudflare',
      ...(worker ? { worker } : {}),
      ...(typeof occ === 'number' && Number.isInteger(occ) && occ > 0 ? { occurrences: occ } : {}),
    },
  };
}

export function parseNotice(b: unknown): Parsed {
  if (typeof b !== 'object' || b === null || Array.isArray(b)) {
    return { ok: false, errors: [{ field: 'body', reason: 'must be a JSON object' }] };
  }
  const o = b as Record<string, unknown>;
  const errors: { field: string; reason: string }[] = [];
  if (o.kind === 'question') errors.push({ field: 'kind', reason: 'a notice cannot ask a question; nothing is answered' });
  if (o.callbackUrl !== undefined) errors.push({ field: 'callbackUrl', reason: 'a notice has no callback; nothing is answered' });
  if (errors.length) return { ok: false, errors };
  if (o.title === undefined && typeof o.alert_type === 'string' && typeof o.text === 'string') return parseCloudflare(o);

  if (typeof o.title !== 'string' || oneLine(o.title) === '') errors.push({ field: 'title', reason: 'required: one line of text' });
  if (o.summary !== undefined && typeof o.summary !== 'string') errors.push({ field: 'summary', reason: 'must be a string' });
  if (o.url !== undefined && (typeof o.url !== 'string' || !isHttpUrl(o.url))) errors.push({ field: 'url', reason: 'must be an http or https address' });
  if (o.dedupeKey !== undefined && (typeof o.dedupeKey !== 'string' || o.dedupeKey === '' || o.dedupeKey.length > NOTICE_LIMITS.dedupeKey)) {
    errors.push({ field: 'dedupeKey', reason: `must be a string of 1 to ${NOTICE_LIMITS.dedupeKey} characters` });
  }
  if (o.status !== undefined && o.status !== 'open' && o.status !== 'resolved') errors.push({ field: 'status', reason: 'open or resolved' });
  if (o.severity !== undefined && !SEVERITIES.includes(o.severity as string)) errors.push({ field: 'severity', reason: 'critical, error, warning or info' });
  if (o.from !== undefined && (typeof o.from !== 'string' || oneLine(o.from) === '')) errors.push({ field: 'from', reason: 'must be a non-empty string' });
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    notice: {
      title: shorten(oneLine(o.title as string), NOTICE_LIMITS.title),
      ...(typeof o.summary === 'string' && o.summary !== '' ? { summary: shorten(o.summary, NOTICE_LIMITS.summary) } : {}),
      ...(typeof o.url === 'string' ? { link: o.url } : {}),
      ...(typeof o.dedupeKey === 'string' ? { dedupeKey: o.dedupeKey } : {}),
      status: (o.status as 'open' | 'resolved' | undefined) ?? 'open',
      ...(typeof o.severity === 'string' ? { severity: o.severity } : {}),
      from: typeof o.from === 'string' ? shorten(oneLine(o.from), NOTICE_LIMITS.from) : 'Webhook',
    },
  };
}

export class Notices {
  constructor(
    private readonly state: SandboxState,
    private readonly cards: Cards,
    private readonly clock: Clock,
  ) {}

  createWebhook(name: string, area: { id: string; name: string }): WebhookRec {
    const hook: WebhookRec = {
      id: newId('whk'),
      name,
      area,
      token: newId('in').slice(3),
      paused: false,
      createdAt: this.clock.now(),
      deliveries: [],
      counts: { delivered: 0, paused: 0, rateLimited: 0, tooManyOpen: 0, refused: 0 },
    };
    this.state.webhooks.set(hook.id, hook);
    return hook;
  }

  byToken(token: string): WebhookRec | undefined {
    for (const h of this.state.webhooks.values()) if (h.token === token) return h;
    return undefined;
  }

  /** Open: waiting on the person, in the stack or in Later. */
  private openCards(hook: WebhookRec): CardRec[] {
    return [...this.state.cards.live()].filter(
      (c) => c.notice?.webhookId === hook.id && (c.status === 'pending' || c.status === 'snoozed'),
    );
  }

  deliver(hook: WebhookRec, notice: Notice): { status: number; body: Record<string, unknown> } {
    const now = this.clock.now();
    if (hook.paused) {
      hook.counts.paused++;
      return { status: 202, body: { ok: true, result: 'paused' } };
    }
    const open = this.openCards(hook);
    const same = notice.dedupeKey !== undefined ? open.find((c) => c.notice?.dedupeKey === notice.dedupeKey) : undefined;
    if (notice.status === 'resolved') {
      if (!same) return { status: 200, body: { ok: true, result: 'nothing_open' } };
      this.cards.resolveNotice(same, now);
      hook.counts.delivered++;
      return { status: 200, body: { ok: true, result: 'resolved', cardId: same.id, count: same.notice!.count } };
    }
    if (same && same.notice) {
      const n = same.notice;
      n.count = notice.occurrences !== undefined ? Math.max(notice.occurrences, n.count + 1) : n.count + 1;
      n.lastAt = now;
      // The newest words are shown; the card keeps its place (rank) in the stack.
      same.title = notice.title;
      if (notice.summary !== undefined) same.summary = notice.summary;
      if (notice.severity !== undefined) n.severity = notice.severity;
      if (notice.link !== undefined) n.link = notice.link;
      this.cards.repeatNotice(same, now);
      hook.counts.delivered++;
      return { status: 200, body: { ok: true, result: 'repeated', cardId: same.id, count: n.count } };
    }
    if (open.length >= NOTICE_LIMITS.openPerWebhook) {
      hook.counts.tooManyOpen++;
      return {
        status: 429,
        body: { ok: false, code: 'too_many_open', detail: `${NOTICE_LIMITS.openPerWebhook} notices of this webhook already wait on the person; counted, not shown.` },
      };
    }
    const card = this.cards.create({
      kind: 'update',
      title: notice.title,
      ...(notice.summary !== undefined ? { summary: notice.summary } : {}),
      urgency: notice.severity === 'critical' ? 'now' : 'today',
      blocking: false,
      area: { ...hook.area },
    }, now);
    card.notice = {
      webhookId: hook.id,
      ...(notice.dedupeKey !== undefined ? { dedupeKey: notice.dedupeKey } : {}),
      count: notice.occurrences ?? 1,
      firstAt: now,
      lastAt: now,
      ...(notice.severity !== undefined ? { severity: notice.severity } : {}),
      from: notice.from,
      ...(notice.worker !== undefined ? { worker: notice.worker } : {}),
      ...(notice.link !== undefined ? { link: notice.link } : {}),
    };
    card.history[0] = { at: now, type: 'notice', by: 'webhook', detail: hook.name };
    hook.counts.delivered++;
    return { status: 201, body: { ok: true, result: 'created', cardId: card.id, count: card.notice.count } };
  }

  register(app: FastifyInstance): void {
    void app.register(async (scope) => {
      // The address reads any body itself: "not JSON" and "too large" are its own answers.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
      scope.post('/in/:token', async (req, reply) => {
        const hook = this.byToken((req.params as { token: string }).token);
        if (!hook) return refuse(reply, 401, 'unknown_token', 'No webhook has this address; it was replaced, removed or never made.');
        const raw = req.body as Buffer | undefined;
        if (raw && raw.length > NOTICE_LIMITS.bodyBytes) {
          hook.counts.refused++;
          return refuse(reply, 413, 'too_large', 'The body is over 64 KB.');
        }
        const now = this.clock.now();
        hook.deliveries = hook.deliveries.filter((t) => t > now - 60_000);
        if (hook.deliveries.length >= NOTICE_LIMITS.perMinute) {
          hook.counts.rateLimited++;
          const retry = Math.max(1, Math.ceil((hook.deliveries[0]! + 60_000 - now) / 1000));
          reply.header('Retry-After', String(retry));
          return refuse(reply, 429, 'rate_limited', `Over ${NOTICE_LIMITS.perMinute} a minute; counted, not shown.`);
        }
        hook.deliveries.push(now);
        let body: unknown;
        try {
          body = JSON.parse((raw ?? Buffer.alloc(0)).toString('utf8'));
        } catch {
          hook.counts.refused++;
          return refuse(reply, 400, 'not_json', 'The body is not JSON.');
        }
        const parsed = parseNotice(body);
        if (!parsed.ok) {
          hook.counts.refused++;
          return refuse(reply, 422, 'invalid', parsed.errors.map((e) => `${e.field}: ${e.reason}`).join('; '), parsed.errors);
        }
        const out = this.deliver(hook, parsed.notice);
        return reply.code(out.status).send(out.body);
      });
    });
  }
}
