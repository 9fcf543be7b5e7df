// application/x-www-form-urlencoded bodies for /oauth/* and the approval pages. Repeated fields
// stay arrays so the token endpoint can refuse them (RFC 6749 3.1) and the pages can read the
// ticked scope boxes.
import type { FastifyInstance, FastifyReply } from 'fastify';

export type Form = Record<string, string | string[]>;

export function parseForm(text: string): Form {
  const form: Form = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const had = form[k];
    form[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return form;
}

export function addFormParser(app: FastifyInstance): void {
  if (app.hasContentTypeParser('application/x-www-form-urlencoded')) return;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    done(null, parseForm(body as string));
  });
}

/** The body as a form (an object of strings), whatever parser produced it. */
export function formOf(body: unknown): Form {
  if (typeof body !== 'object' || body === null) return {};
  const form: Form = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (typeof v === 'string') form[k] = v;
    else if (Array.isArray(v)) form[k] = v.map(String);
    else if (typeof v === 'number' || typeof v === 'boolean') form[k] = String(v);
  }
  return form;
}

/** First value of a field (for pages, where repeats are harmless). */
export function field(form: Form, name: string): string | undefined {
  const v = form[name];
  return Array.isArray(v) ? v[0] : v;
}

export function fieldAll(form: Form, name: string): string[] {
  const v = form[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** An OAuth error answer of the token, device and authorize endpoints. */
export function oauthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('content-type', 'application/json; charset=utf-8')
    .send({ error, error_description: description });
}
