// Who may talk to the sandbox at all. It runs on the person's computer, so any web page they open
// can aim requests at it: a foreign Host means DNS rebinding, a foreign Origin means another site
// posting, and a non-JSON body on the control surface means a plain HTML form (no CORS preflight).
// Other users of the computer can reach the loopback port too: control writes need the run's secret.
import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * `host:port` values this server answers: loopback names on the port it listens on or, for a port
 * forward on this computer (code-server's /proxy/<port>/ keeps its own Host), on any port; and
 * --public-url's. A loopback literal cannot come from DNS rebinding: there the browser sends the
 * attacker's name.
 */
export function allowedHosts(publicUrl: string | undefined): Set<string> {
  const hosts = new Set<string>();
  if (publicUrl) {
    const u = new URL(publicUrl);
    hosts.add(u.host.toLowerCase());
    // A URL without a port is served on the scheme's default one; browsers then omit it in Host.
    if (u.port === '') hosts.add(`${u.hostname.toLowerCase()}:${u.protocol === 'https:' ? 443 : 80}`);
  }
  return hosts;
}

function isLoopbackHost(host: string): boolean {
  const m = /^(127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})$/.exec(host);
  return m !== null && Number(m[2]) > 0 && Number(m[2]) <= 65535;
}

export function hostAllowed(host: string | undefined, allowed: Set<string>): boolean {
  if (host === undefined) return false;
  const h = host.toLowerCase();
  return isLoopbackHost(h) || allowed.has(h);
}

/**
 * An absent Origin is a non-browser client (curl, the extension, tests); a present one must be
 * this server's own origin. `null` (sandboxed frames, some redirects) is foreign.
 */
export function originAllowed(origin: string | string[] | undefined, allowed: Set<string>): boolean {
  if (origin === undefined) return true;
  if (Array.isArray(origin)) return false;
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  return u.protocol === 'http:' && isLoopbackHost(u.host) ? true : allowed.has(u.host.toLowerCase());
}

/** The control surface takes JSON only: a cross-site form can send none without a preflight. */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const mime = contentType.split(';')[0]?.trim().toLowerCase();
  return mime === 'application/json';
}

/** True when the request carries a body (some bytes, or chunked). */
export function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  if (typeof length === 'string' && length.trim() !== '' && length.trim() !== '0') return true;
  return headers['transfer-encoding'] !== undefined;
}

export const isControl = (url: string) => url.startsWith('/_sandbox/') || url === '/_sandbox';

/** A control request that changes something: every method but GET and HEAD. */
export const isControlWrite = (method: string, url: string) => isControl(url) && method !== 'GET' && method !== 'HEAD';

/** A fresh per-run control secret (256 bits, base64url). */
export function newControlSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * `Authorization: Bearer <secret>` naming this run's control secret. Any local user can reach a
 * loopback port, so a control write (which can write an identity file and hand back its key)
 * needs the secret only the sandbox's starter was shown.
 */
export function controlSecretMatches(authorization: string | string[] | undefined, secret: string): boolean {
  if (typeof authorization !== 'string') return false;
  const m = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(authorization.trim());
  if (!m?.[1]) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The loopback name the request used (so the {base_url} stays the one the client signs proofs
 * for), with the port the server listens on: the Host header's port is the caller's word and
 * would become the address written into identity files.
 */
export function loopbackBaseUrl(host: string | undefined, listeningPort: number): string {
  const m = /^(127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/.exec((host ?? '').toLowerCase());
  return `http://${m?.[1] ?? '127.0.0.1'}:${listeningPort}`;
}

/** HTML form posts that change something for the person: approval, consent, the card page. */
export function isPersonFormPost(method: string, url: string): boolean {
  if (method !== 'POST') return false;
  const path = url.split('?')[0] ?? url;
  return path === '/device' || path === '/oauth/authorize' || /^\/cards\/[^/]+$/.test(path);
}
