// One DPoP-bound request, for /v1 (client.ts) and the token endpoints (src/auth/oauth.ts) alike:
// a fresh proof per attempt with the latest nonce; repeated once, at once, when the service asks
// for a new nonce (`use_dpop_nonce`, RFC 9449 sections 8 and 9) and once when it refuses the
// proof for its time (`invalid_dpop_proof` with a `Date` far from ours: ServerTime corrects it).
// Only the service's own refusal counts: a gateway's answer, whatever its body, is never retried
// here and never read as a sign-in refusal (the callers turn it into a NetworkError).
import { MalformedResponseError, OAuthRefusalError } from './errors';
import type { HttpResponse } from './http';
import { OAuthError } from './schemas';

/**
 * The latest DPoP-Nonce per issuer of the challenge: the authorization server's (token endpoint)
 * and the resource server's (/v1) are kept apart even on one origin (RFC 9449 section 9), so the
 * one never overwrites the other and costs a refused try.
 */
export class NonceStore {
  private readonly nonces = new Map<string, string>();
  get(url: string, endpoint: DpopEndpoint): string | undefined {
    return this.nonces.get(NonceStore.keyOf(url, endpoint));
  }
  remember(url: string, endpoint: DpopEndpoint, res: HttpResponse): void {
    const n = res.headers['dpop-nonce'];
    if (n) this.nonces.set(NonceStore.keyOf(url, endpoint), n);
  }
  private static keyOf(url: string, endpoint: DpopEndpoint): string {
    return `${endpoint} ${new URL(url).origin}`;
  }
}

/** What a refusal for time needs: ServerTime's correction, undone when the repeat fails too. */
export interface TimeCorrection {
  correctFrom(dateHeader: string | undefined): (() => void) | undefined;
}

/**
 * Where the request goes decides what a sign-in refusal looks like: at /v1 a 401/403 carrying the
 * service's DPoP or Bearer challenge; at the token endpoint a 400/401 with an OAuth JSON body.
 */
export type DpopEndpoint = 'resource' | 'token';

export interface DpopRequest {
  method: string;
  url: string;
  endpoint: DpopEndpoint;
  nonces: NonceStore;
  /** Present when the proof's time may be corrected after a refusal for time. */
  serverTime?: TimeCorrection;
  /** The proof for one attempt, made with the nonce given; absent: the request carries none. */
  proof?: (nonce: string | undefined) => Promise<string>;
  /** Before each attempt's proof (e.g. waiting out a rate limit; may throw to stop). */
  beforeProof?: () => Promise<void>;
  /** Sends one attempt; `dpop` is the proof header (undefined without `proof`). */
  send: (dpop: string | undefined) => Promise<HttpResponse>;
}

export interface DpopAnswer {
  res: HttpResponse;
  /** The service's own sign-in refusal in `res`, if it is one (after the repeats allowed). */
  refusal: OAuthRefusalError | undefined;
}

/** Sends a DPoP-bound request; repeats once for a new nonce and once for the service's time. */
export async function sendDpopBound(r: DpopRequest): Promise<DpopAnswer> {
  let nonceRetried = false;
  let timeRetried = false;
  let undoTime: (() => void) | undefined;
  for (;;) {
    await r.beforeProof?.();
    const dpop = r.proof ? await r.proof(r.nonces.get(r.url, r.endpoint)) : undefined;
    const res = await r.send(dpop);
    r.nonces.remember(r.url, r.endpoint, res);
    const refusal = oauthRefusalOf(res, r.url, r.endpoint);
    if (r.proof && refusal?.error === 'use_dpop_nonce' && !nonceRetried && res.headers['dpop-nonce']) {
      nonceRetried = true;
      continue;
    }
    if (r.proof && refusal?.error === 'invalid_dpop_proof' && !timeRetried && r.serverTime) {
      // Maybe this computer's clock is off: repeat once on the service's time.
      timeRetried = true;
      undoTime = r.serverTime.correctFrom(res.headers['date']);
      if (undoTime) continue;
    }
    // The repeat on the service's time was refused too: the clock was not the reason.
    if (refusal?.error === 'invalid_dpop_proof') undoTime?.();
    return { res, refusal };
  }
}

/**
 * The service's OAuth refusal in this answer, or undefined when it is not one (success, a /v1
 * problem, or an answer from something in between: a gateway's 502 may carry an `error` too).
 */
export function oauthRefusalOf(res: HttpResponse, url: string, endpoint: DpopEndpoint): OAuthRefusalError | undefined {
  if (endpoint === 'resource') {
    const www = res.headers['www-authenticate'];
    if ((res.status !== 401 && res.status !== 403) || !www || !/^\s*(dpop|bearer)\b/i.test(www)) return undefined;
    const fromHeader = parseWwwAuthenticate(www);
    const body = isJsonType(res.headers['content-type']) ? OAuthError.safeParse(parseLeniently(res.text)) : undefined;
    const error = body?.success ? body.data.error : (fromHeader.error ?? 'invalid_token');
    const description = body?.success ? body.data.error_description : fromHeader.error_description;
    return new OAuthRefusalError(res.status, error, description, url, fromHeader.scope, res.headers['date']);
  }
  if (res.status !== 400 && res.status !== 401) return undefined;
  if (!isJsonType(res.headers['content-type'])) return undefined;
  const body = OAuthError.safeParse(parseLeniently(res.text));
  if (!body.success) return undefined;
  return new OAuthRefusalError(res.status, body.data.error, body.data.error_description, url, undefined, res.headers['date']);
}

/** JSON or a JSON-based type (`application/problem+json`); the one check of both callers. */
export function isJsonType(contentType: string | undefined): boolean {
  return /^\s*application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType ?? '');
}

/** The body of an answer the caller expects to be JSON: its type checked, then parsed. */
export function readJson(res: HttpResponse, url: string): unknown {
  const type = res.headers['content-type'] ?? '';
  if (!isJsonType(type)) throw new MalformedResponseError('content-type', res.status, url, type || 'no content type');
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    throw new MalformedResponseError('json', res.status, url);
  }
}

export function parseWwwAuthenticate(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of header.matchAll(/([a-zA-Z_]+)="([^"]*)"/g)) {
    if (m[1] && m[2] !== undefined) out[m[1]] = m[2];
  }
  return out;
}

function parseLeniently(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
