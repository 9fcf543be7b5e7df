// Who is at the service's card page: a person session (a cookie the page sets, HttpOnly and
// SameSite=Strict, so another site's form post carries none) and a form token per render, bound to
// that session and card, used once. Together: only a person who loaded the page can answer there.
// Loading the page is not enough (#35): anything on the computer can load it. A session may answer
// a card only once a page ticket let it in: a one-time, short-lived link the person's signed-in app
// asks for (POST /v1/cards/{id}/page-link) when the person presses "Open in Browser".
import { randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'ac_person';
const SESSION_MS = 12 * 3_600_000;
const TOKEN_MS = 3_600_000;
/** A page ticket is good for one use within this (the browser opens it within seconds). */
export const TICKET_MS = 5 * 60_000;
const MAX_TICKETS = 1_000;
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
  private readonly tickets = new Map<string, { cardId: string; expiresAt: number }>();
  /** Sessions a ticket let in, and the cards each may answer. */
  private readonly answering = new Map<string, Set<string>>();

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

  /** A one-time ticket into one card's page, for the person's signed-in app to put in the link it opens. */
  ticket(cardId: string): { ticket: string; expiresAt: number } {
    const ticket = secret();
    const expiresAt = this.now() + TICKET_MS;
    setBounded(this.tickets, ticket, { cardId, expiresAt }, MAX_TICKETS);
    return { ticket, expiresAt };
  }

  /**
   * Spends a ticket: true once, for a ticket of this card still in time; the session may then
   * answer that card. A ticket is spent by its first use whatever the outcome.
   */
  redeem(session: string, cardId: string, ticket: string | undefined): boolean {
    if (ticket === undefined) return false;
    const t = this.tickets.get(ticket);
    if (!t) return false;
    this.tickets.delete(ticket);
    if (t.cardId !== cardId || t.expiresAt <= this.now() || !this.sessions.has(session)) return false;
    const cards = this.answering.get(session) ?? new Set<string>();
    cards.add(cardId);
    setBounded(this.answering, session, cards, MAX_SESSIONS);
    return true;
  }

  /** Whether a ticket let this live session in to answer this card. */
  mayAnswer(session: string | undefined, cardId: string): boolean {
    if (session === undefined) return false;
    const until = this.sessions.get(session);
    return until !== undefined && until > this.now() && this.answering.get(session)?.has(cardId) === true;
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
    this.tickets.clear();
    this.answering.clear();
  }
}
