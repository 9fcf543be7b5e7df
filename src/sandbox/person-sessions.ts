// Who is at the service's card page: a person session (a cookie the page sets, HttpOnly and
// SameSite=Strict, so another site's form post carries none) and a form token per render, bound to
// that session and card, used once. Together: only a person who loaded the page can answer there.
import { randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'ac_person';
const SESSION_MS = 12 * 3_600_000;
const TOKEN_MS = 3_600_000;
/** Bounds for both maps: the oldest entries go first (a flood of page loads cannot grow memory). */
const MAX_SESSIONS = 1_000;
const MAX_TOKENS = 5_000;

const secret = () => randomBytes(24).toString('base64url');

/** The value of one cookie in a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function setBounded<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value!);
}

export class PersonSessions {
  private readonly sessions = new Map<string, number>(); // id -> expiresAt
  private readonly tokens = new Map<string, { session: string; cardId: string; expiresAt: number }>();

  constructor(private readonly now: () => number) {}

  /** The live session named by the Cookie header, if any. */
  find(cookieHeader: string | undefined): string | undefined {
    const id = cookieValue(cookieHeader, SESSION_COOKIE);
    if (id === undefined) return undefined;
    const until = this.sessions.get(id);
    return until !== undefined && until > this.now() ? id : undefined;
  }

  start(): { id: string; cookie: string } {
    const id = secret();
    setBounded(this.sessions, id, this.now() + SESSION_MS, MAX_SESSIONS);
    return { id, cookie: `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/` };
  }

  /** A token for one render of one card's form. */
  issue(session: string, cardId: string): string {
    const token = secret();
    setBounded(this.tokens, token, { session, cardId, expiresAt: this.now() + TOKEN_MS }, MAX_TOKENS);
    return token;
  }

  /** True once for a token issued to this session for this card; it is spent either way. */
  take(session: string | undefined, cardId: string, token: string | undefined): boolean {
    if (session === undefined || token === undefined) return false;
    const t = this.tokens.get(token);
    if (!t) return false;
    this.tokens.delete(token);
    return t.session === session && t.cardId === cardId && t.expiresAt > this.now();
  }

  reset(): void {
    this.sessions.clear();
    this.tokens.clear();
  }
}
