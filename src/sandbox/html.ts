// The service's own HTML pages (approval, consent, card page): every value escaped, no scripts,
// no external assets, never cached, never framed.
import type { FastifyReply } from 'fastify';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (c) => ENTITIES[c]!);
}

/**
 * `formsTo: 'self'` limits where its forms may post. The consent page of the authorization-code
 * flow leaves it out: its form posts here and is then redirected to the app's own address, which
 * Chromium checks against form-action too.
 */
export function sendHtml(reply: FastifyReply, status: number, html: string, opts: { formsTo?: 'self' } = {}): FastifyReply {
  const formAction = opts.formsTo === 'self' ? " form-action 'self';" : '';
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', `default-src 'none'; style-src 'unsafe-inline';${formAction} frame-ancestors 'none'`)
    .send(html);
}
