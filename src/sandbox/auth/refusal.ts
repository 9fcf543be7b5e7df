// OAuth refusals of /v1 (401/403 with WWW-Authenticate) and how to answer them.
import type { FastifyReply } from 'fastify';
import { OAuthRefusal, ProblemError, sendProblem } from '../problems';

/** WWW-Authenticate parameters are quoted strings: keep them free of quotes and backslashes. */
function quoted(text: string): string {
  return text.replace(/["\\]/g, "'");
}

export function refusal(scheme: 'DPoP' | 'Bearer', status: number, error: string, description: string, extra = ''): OAuthRefusal {
  const algs = scheme === 'DPoP' ? ', algs="ES256"' : '';
  return new OAuthRefusal(status, error, description, `${scheme} error="${error}", error_description="${quoted(description)}"${extra}${algs}`);
}

/** Answers a refusal thrown by authenticate(); anything else is thrown on. */
export function answerRefusal(reply: FastifyReply, baseUrl: string, err: unknown): FastifyReply {
  if (err instanceof OAuthRefusal) {
    if (err.wwwAuthenticate) reply.header('www-authenticate', err.wwwAuthenticate);
    return reply.code(err.status).header('cache-control', 'no-store').send({ error: err.error, error_description: err.description });
  }
  if (err instanceof ProblemError) return sendProblem(reply, baseUrl, err.code, err.detail, err.extra);
  throw err;
}

