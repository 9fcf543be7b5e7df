// The /v1 routes, once: method, path, scope, limit classes, idempotency, and what
// /v1/openapi.json says of each. routes-v1.ts registers a handler per entry from this table and
// openapi.ts renders the document from it, so the two cannot tell different stories (they did:
// the document named an `answers` class the limiter does not count).
import { CARD_STATUSES, KNOWN_APPS } from '../api/constants';
import type { LimitClass, ProblemCode, Scope } from '../api/constants';
import { int, pattern, repeated, str, type Schema } from './openapi-parts';

/** The classes a route names; every call also counts against the per-person limit. */
export type RouteClass = Exclude<LimitClass, 'person'>;

export interface V1Route {
  method: 'GET' | 'POST';
  /** OpenAPI's form (`{id}`); Fastify's is fastifyPath(). */
  path: string;
  operationId: string;
  summary: string;
  scope: Scope | 'any';
  classes: readonly RouteClass[];
  /** Counted instead of `classes` when the request waits (GET /v1/changes with wait > 0). */
  classesWhenWaiting?: readonly RouteClass[];
  /** Writes: Idempotency-Key optional or required. */
  idempotency?: 'required' | 'optional';
  /** Card actions hold the card while they answer: a different write meanwhile is `conflict`. */
  holdsCard?: boolean;
  /** GET /v1/me: the sign-in side serves it (auth/me-route.ts) and answers its own refusals. */
  servedByAuth?: boolean;
  query?: Schema[];
  body?: { schema: string; required: boolean };
  ok: { status: number; schema?: string; description: string };
  problems: ProblemCode[];
}

const EVERY: ProblemCode[] = ['invalid', 'app_not_available', 'rate_limited', 'server_error', 'unavailable'];
const CARD_ACTION: ProblemCode[] = [...EVERY, 'not_found', 'conflict', 'idempotency_in_progress', 'idempotency_mismatch'];

export const V1_ROUTES: readonly V1Route[] = [
  { method: 'GET', path: '/v1/me', operationId: 'getMe', summary: 'This sign-in: person, workspace, app and grant', scope: 'any', classes: ['read'], servedByAuth: true, ok: { status: 200, schema: 'Me', description: 'The Me object.' }, problems: EVERY },
  {
    method: 'GET', path: '/v1/cards', operationId: 'listCards', summary: 'Cards in reach, filtered', scope: 'cards:read', classes: ['read'],
    query: [
      { name: 'status', in: 'query', schema: str({ enum: [...CARD_STATUSES], default: 'pending' }), description: 'pending: the stack\'s order; snoozed: soonest back first; delegated: with a helper; done: last 30 days, newest first.' },
      repeated('area', pattern('prj'), 20, 'Areas, repeated.'),
      repeated('assistant', pattern('con'), 20, 'Assistants, repeated.'),
      repeated('agent', pattern('agt'), 20, 'Agents, repeated.'),
      repeated('app', str({ enum: [...KNOWN_APPS] }), 13, 'Assistant apps, repeated.'),
      repeated('machine', pattern('mch'), 10, 'Computers, repeated.'),
      { name: 'threadId', in: 'query', schema: pattern('req') },
      { name: 'limit', in: 'query', schema: int({ minimum: 1, maximum: 100, default: 50 }) },
      { name: 'whole', in: 'query', schema: int({ minimum: 0, maximum: 3, default: 1 }), description: 'Number of leading cards returned whole; the rest come in the lighter form.' },
      { name: 'after', in: 'query', schema: str({ minLength: 1, maxLength: 200 }), description: 'Continuation from `next`.' },
    ],
    ok: { status: 200, schema: 'CardList', description: 'A page of cards.' }, problems: EVERY,
  },
  { method: 'GET', path: '/v1/cards/{id}', operationId: 'getCard', summary: 'One card, whole', scope: 'cards:read', classes: ['read'], ok: { status: 200, schema: 'CardEnvelope', description: 'The card.' }, problems: [...EVERY, 'not_found'] },
  {
    method: 'POST', path: '/v1/cards/{id}/answer', operationId: 'answerCard', summary: 'Answer a card on the person\'s press (also "Got it" on update cards)', scope: 'cards:answer', classes: ['write', 'answer'], holdsCard: true,
    body: { schema: 'AnswerBody', required: true }, idempotency: 'required', ok: { status: 200, schema: 'AnswerResult', description: 'Answered; held until undoUntil.' },
    problems: [...CARD_ACTION, 'high_stakes', 'area_change', 'forbidden', 'version_conflict', 'not_waiting', 'delegated', 'not_available'],
  },
  {
    method: 'POST', path: '/v1/cards/{id}/undo', operationId: 'undoAnswer', summary: 'Undo this app\'s answer within 5 seconds', scope: 'cards:answer', classes: ['write'], holdsCard: true,
    body: { schema: 'OptionalBody', required: false }, idempotency: 'optional', ok: { status: 200, schema: 'PendingResult', description: 'Waiting on the person again.' },
    problems: [...CARD_ACTION, 'high_stakes', 'forbidden', 'not_your_answer', 'not_waiting', 'hold_over'],
  },
  {
    method: 'POST', path: '/v1/cards/{id}/messages', operationId: 'writeToAssistant', summary: 'Write to the asking assistant on its card', scope: 'cards:reply', classes: ['write', 'answer'], holdsCard: true,
    body: { schema: 'MessageBody', required: true }, idempotency: 'optional', ok: { status: 200, schema: 'MessageResult', description: 'Written; the turn is the assistant\'s.' },
    problems: [...CARD_ACTION, 'high_stakes', 'forbidden', 'not_waiting', 'delegated'],
  },
  {
    method: 'POST', path: '/v1/cards/{id}/later', operationId: 'putInLater', summary: 'Put a card in Later', scope: 'cards:later', classes: ['write'], holdsCard: true,
    body: { schema: 'LaterBody', required: true }, idempotency: 'optional', ok: { status: 200, schema: 'LaterResult', description: 'In Later until `until`.' },
    problems: [...CARD_ACTION, 'high_stakes', 'forbidden', 'not_waiting', 'delegated'],
  },
  {
    method: 'POST', path: '/v1/cards/{id}/back', operationId: 'bringBack', summary: 'Bring a card back from Later', scope: 'cards:later', classes: ['write'], holdsCard: true,
    body: { schema: 'OptionalBody', required: false }, idempotency: 'optional', ok: { status: 200, schema: 'PendingResult', description: 'Back in its place in the stack.' },
    problems: [...CARD_ACTION, 'high_stakes', 'forbidden', 'not_waiting'],
  },
  {
    method: 'POST', path: '/v1/cards/{id}/delegate', operationId: 'handOver', summary: 'Hand a card to another assistant', scope: 'cards:delegate', classes: ['write'], holdsCard: true,
    body: { schema: 'DelegateBody', required: true }, idempotency: 'optional', ok: { status: 200, schema: 'DelegateResult', description: 'With the helper (who sees it after undoUntil).' },
    problems: [...CARD_ACTION, 'high_stakes', 'forbidden', 'not_waiting', 'delegated'],
  },
  {
    method: 'POST', path: '/v1/cards/{id}/take-back', operationId: 'takeBack', summary: 'Take a card back from its helper', scope: 'cards:delegate', classes: ['write'], holdsCard: true,
    body: { schema: 'OptionalBody', required: false }, idempotency: 'optional', ok: { status: 200, schema: 'PendingResult', description: 'Waiting on the person again.' },
    problems: [...CARD_ACTION, 'high_stakes', 'forbidden', 'not_waiting'],
  },
  {
    // Additive (#35): the card page answers only for a person who came through this link.
    method: 'POST', path: '/v1/cards/{id}/page-link', operationId: 'cardPageLink', summary: 'A one-time link that opens the card in the service, where the person may answer it (high stakes too)', scope: 'cards:read', classes: ['write'],
    ok: { status: 200, schema: 'PageLink', description: 'The card\'s page with a one-time ticket: good for one opening, until expiresAt (5 minutes). The card\'s plain `url` shows it read-only.' },
    problems: [...EVERY, 'not_found'],
  },
  {
    method: 'GET', path: '/v1/changes', operationId: 'listChanges', summary: 'The change feed, in commit order, within reach', scope: 'cards:read', classes: ['read'], classesWhenWaiting: ['wait'],
    query: [
      { name: 'after', in: 'query', schema: str({ minLength: 1 }), description: 'Cursor from an earlier answer; without it the feed starts from now.' },
      { name: 'wait', in: 'query', schema: int({ minimum: 0, maximum: 25, default: 0 }), description: 'Seconds to hold the request until the first change.' },
      { name: 'limit', in: 'query', schema: int({ minimum: 1, maximum: 100, default: 50 }) },
    ],
    ok: { status: 200, schema: 'ChangeList', description: 'Changes (ids and types only), a cursor, and whether more wait.' }, problems: EVERY,
  },
  { method: 'GET', path: '/v1/assistants', operationId: 'listAssistants', summary: 'Running assistants, live first', scope: 'assistants:read', classes: ['read'], ok: { status: 200, schema: 'AssistantList', description: 'Assistants with agents and live sessions.' }, problems: EVERY },
  {
    method: 'POST', path: '/v1/presence', operationId: 'setPresence', summary: 'The person is at the app (every 30 s; lasts 75 s) or left', scope: 'presence:desk', classes: ['write'], idempotency: 'optional',
    body: { schema: 'PresenceBody', required: true }, ok: { status: 204, description: 'No body.' }, problems: EVERY,
  },
];

/** `/v1/cards/{id}` as Fastify writes it: `/v1/cards/:id`. */
export function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** The entry of a route, by method and OpenAPI path. */
export function v1Route(method: V1Route['method'], path: string): V1Route {
  const r = V1_ROUTES.find((x) => x.method === method && x.path === path);
  if (!r) throw new Error(`no /v1 route ${method} ${path}`);
  return r;
}
