// RFC 9457 problem answers for every /v1 refusal beyond sign-in.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProblemCode } from '../api/schemas';

export const PROBLEM_STATUS: Record<ProblemCode, number> = {
  invalid: 400,
  app_not_available: 403,
  high_stakes: 403,
  area_change: 403,
  forbidden: 403,
  not_your_answer: 403,
  not_found: 404,
  version_conflict: 409,
  not_waiting: 409,
  delegated: 409,
  hold_over: 409,
  conflict: 409,
  idempotency_in_progress: 409,
  idempotency_mismatch: 422,
  rate_limited: 429,
  server_error: 500,
  not_available: 501,
  unavailable: 503,
};

const TITLES: Record<ProblemCode, string> = {
  invalid: 'The request is not valid',
  app_not_available: 'This app is not available',
  high_stakes: 'High-stakes cards are answered in the service',
  area_change: 'The answer would change the area',
  forbidden: 'Not allowed',
  not_your_answer: 'Only the app that answered can undo',
  not_found: 'Not found',
  version_conflict: 'The card changed',
  not_waiting: 'The card is not waiting',
  delegated: 'The card is with a helper',
  hold_over: 'The undo hold is over',
  conflict: 'Conflict',
  idempotency_in_progress: 'The same request is in progress',
  idempotency_mismatch: 'The idempotency key was used for another request',
  rate_limited: 'Too many requests',
  server_error: 'Server error',
  not_available: 'Not available',
  unavailable: 'Service unavailable',
};

export function requestId(): string {
  return `rid_${randomBytes(9).toString('base64url')}`;
}

/** Thrown by route code; server.ts's error handler turns it into a problem answer. */
export class ProblemError extends Error {
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly extra: { url?: string; errors?: { field: string; reason: string }[]; retryAfter?: number; status?: number } = {},
  ) {
    super(`${code}: ${detail}`);
  }
}

export function problemBody(baseUrl: string, code: ProblemCode, detail: string, extra: ProblemError['extra'] = {}) {
  return {
    type: `${baseUrl}/docs/api/errors#${code}`,
    title: TITLES[code],
    status: extra.status ?? PROBLEM_STATUS[code],
    code,
    detail,
    requestId: requestId(),
    ...(extra.url !== undefined ? { url: extra.url } : {}),
    ...(extra.errors !== undefined ? { errors: extra.errors } : {}),
  };
}

export function sendProblem(
  reply: FastifyReply,
  baseUrl: string,
  code: ProblemCode,
  detail: string,
  extra: ProblemError['extra'] = {},
): FastifyReply {
  if (extra.retryAfter !== undefined) reply.header('Retry-After', String(Math.max(1, Math.ceil(extra.retryAfter))));
  return reply
    .code(extra.status ?? PROBLEM_STATUS[code])
    .header('content-type', 'application/problem+json')
    .send(problemBody(baseUrl, code, detail, extra));
}

/** OAuth-style refusal (sign-in): 401/403/400 with WWW-Authenticate and {error, error_description}. */
export class OAuthRefusal extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly wwwAuthenticate?: string,
  ) {
    super(`${error}: ${description}`);
  }
}

export type { FastifyRequest };
