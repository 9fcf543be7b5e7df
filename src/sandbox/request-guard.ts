// Who may talk to the sandbox at all. It runs on the person's computer, so any web page they open
// can aim requests at it: a foreign Host means DNS rebinding, a foreign Origin means another site
// posting, and a non-JSON body on the control surface means a plain HTML form (no CORS preflight).

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

/** HTML form posts that change something for the person: approval, consent, the card page. */
export function isPersonFormPost(method: string, url: string): boolean {
  if (method !== 'POST') return false;
  const path = url.split('?')[0] ?? url;
  return path === '/device' || path === '/oauth/authorize' || /^\/cards\/[^/]+$/.test(path);
}
