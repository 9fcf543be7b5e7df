// GET /v1/cards: the filters, their limits and patterns, the order of each status, `whole` and the
// lighter form, and the opaque `after` continuation (keyset: a page never skips or repeats a card).
import { createHash } from 'node:crypto';
import { KNOWN_APPS } from '../api/constants';
import type { Grant } from './context';
import { DONE_LISTED_MS, type Cards } from './lifecycle';
import type { CardRec, SandboxState } from './state';
import { asList, intParam, invalid, onlyKnown, PATTERNS, single, type FieldError } from './validate';

export interface CardQuery {
  status: 'pending' | 'snoozed' | 'delegated' | 'done';
  area: string[];
  assistant: string[];
  agent: string[];
  app: string[];
  machine: string[];
  threadId?: string;
  limit: number;
  whole: number;
  after?: { key: number[]; id: string };
}

const KNOWN = ['status', 'area', 'assistant', 'agent', 'app', 'machine', 'threadId', 'limit', 'whole', 'after'];
const STATUSES = ['pending', 'snoozed', 'delegated', 'done'] as const;

function repeated(
  q: Record<string, unknown>, name: string, max: number, check: (v: string) => boolean, what: string, errors: FieldError[],
): string[] {
  const list = asList(q[name]);
  if (q[name] === undefined) return [];
  if (list.length < 1 || list.length > max) errors.push({ field: name, reason: `give 1 to ${max} values` });
  for (const v of list) if (!check(v)) errors.push({ field: name, reason: `${JSON.stringify(v.slice(0, 60))} is not ${what}` });
  return list;
}

/** The filters that make a query "the same" for a continuation (limit and whole may change between pages). */
function queryHash(q: Omit<CardQuery, 'limit' | 'whole' | 'after'>): string {
  const canon = JSON.stringify([q.status, [...q.area].sort(), [...q.assistant].sort(), [...q.agent].sort(),
    [...q.app].sort(), [...q.machine].sort(), q.threadId ?? null]);
  return createHash('sha256').update(canon).digest('base64url').slice(0, 16);
}

export function parseCardQuery(q: Record<string, unknown>): CardQuery {
  const errors: FieldError[] = [];
  onlyKnown(q, KNOWN, errors);
  const statusRaw = single(q, 'status', errors);
  let status: CardQuery['status'] = 'pending';
  if (statusRaw !== undefined) {
    if ((STATUSES as readonly string[]).includes(statusRaw)) status = statusRaw as CardQuery['status'];
    else errors.push({ field: 'status', reason: 'one of pending, snoozed, delegated, done' });
  }
  const area = repeated(q, 'area', 20, (v) => PATTERNS.area.test(v), 'an area id (prj_...)', errors);
  const assistant = repeated(q, 'assistant', 20, (v) => PATTERNS.assistant.test(v), 'an assistant id (con_...)', errors);
  const agent = repeated(q, 'agent', 20, (v) => PATTERNS.agent.test(v), 'an agent id (agt_...)', errors);
  const app = repeated(q, 'app', 13, (v) => (KNOWN_APPS as readonly string[]).includes(v), 'a known app', errors);
  const machine = repeated(q, 'machine', 10, (v) => PATTERNS.machine.test(v), 'a computer id (mch_...)', errors);
  const threadId = single(q, 'threadId', errors);
  if (threadId !== undefined && !PATTERNS.card.test(threadId)) errors.push({ field: 'threadId', reason: 'must be a card id (req_...)' });
  const limit = intParam(q, 'limit', 1, 100, 50, errors);
  const whole = intParam(q, 'whole', 0, 3, 1, errors);
  const base = { status, area, assistant, agent, app, machine, ...(threadId !== undefined ? { threadId } : {}) };
  const afterRaw = single(q, 'after', errors);
  let after: CardQuery['after'];
  if (afterRaw !== undefined) {
    if (afterRaw.length < 1 || afterRaw.length > 200) errors.push({ field: 'after', reason: 'length 1 to 200' });
    else {
      after = decodeAfter(afterRaw, queryHash(base));
      if (!after) errors.push({ field: 'after', reason: 'not a continuation of this query; pass `next` back unchanged' });
    }
  }
  if (errors.length) throw invalid(errors);
  return { ...base, limit, whole, ...(after ? { after } : {}) };
}

function encodeAfter(hash: string, key: number[], id: string): string {
  return Buffer.from(JSON.stringify({ h: hash, k: key, i: id })).toString('base64url');
}

function decodeAfter(raw: string, hash: string): CardQuery['after'] | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (typeof v !== 'object' || v === null) return undefined;
    const o = v as { h?: unknown; k?: unknown; i?: unknown };
    if (o.h !== hash || typeof o.i !== 'string' || !Array.isArray(o.k) || !o.k.every((n) => typeof n === 'number')) return undefined;
    return { key: o.k as number[], id: o.i };
  } catch {
    return undefined;
  }
}

/** Sort key per status; lists go ascending by it. */
function sortKey(status: CardQuery['status'], c: CardRec): number[] {
  switch (status) {
    case 'pending':
      return [c.rank]; // the stack's order: a card keeps its place
    case 'snoozed':
      return [c.until ?? 0, c.rank]; // soonest back first
    case 'delegated':
      return [c.delegation?.at ?? 0, c.rank]; // handed over first, first
    case 'done':
      return [-(c.closedAt ?? 0), -c.rank]; // newest first
  }
}

function cmp(a: number[], ai: string, b: number[], bi: string): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return ai < bi ? -1 : ai > bi ? 1 : 0;
}

/** Which internal states each listed status holds: pending also holds answers the assistant has not picked up. */
function statusMatches(status: CardQuery['status'], c: CardRec, now: number): boolean {
  switch (status) {
    case 'pending':
      return c.status === 'pending' || c.status === 'answered';
    case 'done':
      return c.status === 'done' && c.closedAt !== undefined && now - c.closedAt <= DONE_LISTED_MS;
    default:
      return c.status === status;
  }
}

export function listCards(
  state: SandboxState, cards: Cards, grant: Grant, q: CardQuery,
): { page: CardRec[]; next: string | null } {
  const now = cards.now();
  const matches: { c: CardRec; k: number[] }[] = [];
  // Only the done list needs the done cards (a store may have left them on disk until now).
  for (const c of q.status === 'done' ? state.cards.values() : state.cards.live()) {
    if (!statusMatches(q.status, c, now) || !cards.inReach(grant, c)) continue;
    const assistant = c.assistantId ? state.assistants.get(c.assistantId) : undefined;
    if (q.area.length && !(c.area && q.area.includes(c.area.id))) continue;
    if (q.assistant.length && !(c.assistantId && q.assistant.includes(c.assistantId))) continue;
    if (q.agent.length && !(c.agentId && q.agent.includes(c.agentId))) continue;
    if (q.app.length && !q.app.includes(c.notice ? 'webhook' : assistant?.app ?? '')) continue;
    if (q.machine.length && !(assistant && q.machine.includes(assistant.machineId))) continue;
    if (q.threadId !== undefined && c.threadId !== q.threadId) continue;
    const k = sortKey(q.status, c);
    if (q.after && cmp(k, c.id, q.after.key, q.after.id) <= 0) continue;
    matches.push({ c, k });
  }
  matches.sort((a, b) => cmp(a.k, a.c.id, b.k, b.c.id));
  const page = matches.slice(0, q.limit);
  const last = page[page.length - 1];
  const next = matches.length > q.limit && last
    ? encodeAfter(queryHash(q), last.k, last.c.id)
    : null;
  return { page: page.map((m) => m.c), next };
}
