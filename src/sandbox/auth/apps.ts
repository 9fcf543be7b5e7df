// Registered apps and the spec's registration rules: redirect address forms (matched exactly),
// client secrets shown once, scope ceilings, testers, verification by domain proof.
import { SCOPES, type Scope } from '../../api/constants';
import { newId, newSecret, sha256b64url } from './ids';

export const MAX_REDIRECTS = 10;
export const MAX_TESTERS = 10;
export const MAX_AWAITING = 5;
export const BUILT_IN_CLIENT_ID = 'assistant-cards-vscode';

export type Verification = 'unverified' | 'awaiting' | 'verified';

export interface AppRecord {
  id: string;
  clientId: string;
  name: string;
  publisher: string;
  domain?: string;
  verification: Verification;
  /** The scope ceiling: a sign-in asks for some or all of these. */
  scopes: Scope[];
  redirectUris: string[];
  confidential: boolean;
  secretHash?: string;
  owner: string;
  testers: string[];
  /** Token the owner is shown for the domain proof. */
  proofToken: string;
  domainProven: boolean;
  removed: boolean;
  createdAt: number;
}

export interface FieldError {
  field: string;
  reason: string;
}

/** Has a way to sign in without a computer (web, desktop, single-page): always holds cards:read:all. */
export function isWebOrDesktop(app: AppRecord): boolean {
  return app.redirectUris.length > 0;
}

export function proofLine(app: AppRecord): string {
  return `assistant-cards-app-verification=${app.proofToken}`;
}

/** What the owner is shown to prove the domain: where to put which line. */
export function proofInstructions(app: AppRecord) {
  return {
    token: app.proofToken,
    line: proofLine(app),
    dns: app.domain ? { type: 'TXT', name: `_assistant-cards.${app.domain}`, value: proofLine(app) } : undefined,
    file: app.domain ? { url: `https://${app.domain}/.well-known/assistant-cards-app-verification.txt`, content: proofLine(app) } : undefined,
  };
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const SCHEME = /^[a-z][a-z0-9+.-]*$/;
const PERSON = /^usr_[A-Za-z0-9-]+$/;

function reversedDomain(domain: string): string {
  return domain.split('.').reverse().join('.');
}

/** Why a redirect address is not of an allowed form, or undefined when it is. */
export function redirectProblem(uri: string, domain: string | undefined): string | undefined {
  if (uri.includes('*')) return 'wildcards are not allowed; register each address exactly';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'not an absolute address';
  }
  if (url.hash !== '' || uri.includes('#')) return 'a redirect address must not have a fragment';
  if (url.username !== '' || url.password !== '') return 'a redirect address must not carry a user or password';
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') {
    if (!domain) return 'https addresses need the app\'s website domain (field domain)';
    const host = url.hostname;
    if (host !== domain && !host.endsWith(`.${domain}`)) return `https addresses must be on ${domain} or a subdomain of it`;
    return undefined;
  }
  if (scheme === 'http') {
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
      return 'http is allowed only for http://127.0.0.1 or http://localhost (any port)';
    }
    return undefined;
  }
  if (!SCHEME.test(scheme) || !scheme.includes('.')) {
    return 'use https on the app\'s domain, a loopback http address, or a custom scheme named with the domain reversed (e.g. com.example.app:/callback)';
  }
  if (!domain) return 'a custom scheme needs the app\'s domain (field domain) to be named after it';
  const reversed = reversedDomain(domain);
  if (scheme !== reversed && !scheme.startsWith(`${reversed}.`)) {
    return `a custom scheme must be the app's domain reversed: ${reversed} or ${reversed}.<name>`;
  }
  return undefined;
}

function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost');
}

/** Exact match; for a registered loopback address any port is accepted (RFC 8252 7.3). */
export function redirectMatches(app: AppRecord, uri: string): boolean {
  if (app.redirectUris.includes(uri)) return true;
  let asked: URL;
  try {
    asked = new URL(uri);
  } catch {
    return false;
  }
  if (!isLoopback(asked) || uri.includes('#')) return false;
  return app.redirectUris.some((registered) => {
    const r = new URL(registered);
    return isLoopback(r) && r.hostname === asked.hostname && r.pathname === asked.pathname && r.search === asked.search;
  });
}

export interface RegistrationInput {
  name?: unknown;
  publisher?: unknown;
  domain?: unknown;
  verified?: unknown;
  scopes?: unknown;
  redirectUris?: unknown;
  confidential?: unknown;
  secret?: unknown;
  owner?: unknown;
  testers?: unknown;
  clientId?: unknown;
}

export function testersProblem(testers: unknown, errors: FieldError[]): string[] {
  if (testers === undefined) return [];
  if (!Array.isArray(testers)) {
    errors.push({ field: 'testers', reason: 'must be an array of person ids (usr_...)' });
    return [];
  }
  if (testers.length > MAX_TESTERS) errors.push({ field: 'testers', reason: `at most ${MAX_TESTERS} testers` });
  testers.forEach((t, i) => {
    if (typeof t !== 'string' || !PERSON.test(t)) errors.push({ field: `testers[${i}]`, reason: 'must be a person id usr_...' });
  });
  if (new Set(testers).size !== testers.length) errors.push({ field: 'testers', reason: 'a tester is named twice' });
  return testers as string[];
}

/** Checks a registration; the errors of `invalid`, or the app made (and its secret, shown once). */
export function buildApp(
  input: RegistrationInput,
  defaults: { owner: string; now: number; takenClientIds: Set<string> },
): { errors: FieldError[] } | { app: AppRecord; clientSecret?: string } {
  const errors: FieldError[] = [];
  const name = input.name;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 100) {
    errors.push({ field: 'name', reason: 'required, 1 to 100 characters' });
  }
  if (input.publisher !== undefined && (typeof input.publisher !== 'string' || input.publisher.trim() === '' || input.publisher.length > 100)) {
    errors.push({ field: 'publisher', reason: '1 to 100 characters' });
  }
  let domain: string | undefined;
  if (input.domain !== undefined) {
    if (typeof input.domain !== 'string' || !DOMAIN.test(input.domain)) {
      errors.push({ field: 'domain', reason: 'a lower-case domain name such as example.com' });
    } else domain = input.domain;
  }
  if (input.verified !== undefined && typeof input.verified !== 'boolean') errors.push({ field: 'verified', reason: 'must be a boolean' });
  if (input.confidential !== undefined && typeof input.confidential !== 'boolean') errors.push({ field: 'confidential', reason: 'must be a boolean' });
  const confidential = input.confidential === true || input.secret === true;

  const scopes: Scope[] = [];
  if (!Array.isArray(input.scopes) || input.scopes.length === 0) {
    errors.push({ field: 'scopes', reason: 'required: a non-empty array of scopes' });
  } else {
    input.scopes.forEach((s, i) => {
      if (typeof s !== 'string' || !(SCOPES as readonly string[]).includes(s)) {
        errors.push({ field: `scopes[${i}]`, reason: `unknown scope; one of ${SCOPES.join(', ')}` });
      } else if (scopes.includes(s as Scope)) {
        errors.push({ field: `scopes[${i}]`, reason: 'named twice' });
      } else scopes.push(s as Scope);
    });
  }

  const redirectUris: string[] = [];
  if (input.redirectUris !== undefined && !Array.isArray(input.redirectUris)) {
    errors.push({ field: 'redirectUris', reason: 'must be an array of addresses' });
  } else if (Array.isArray(input.redirectUris)) {
    if (input.redirectUris.length > MAX_REDIRECTS) {
      errors.push({ field: 'redirectUris', reason: `at most ${MAX_REDIRECTS} redirect addresses` });
    }
    input.redirectUris.forEach((u, i) => {
      const problem = typeof u === 'string' ? redirectProblem(u, domain) : 'must be a string';
      if (problem) errors.push({ field: `redirectUris[${i}]`, reason: problem });
      else if (redirectUris.includes(u as string)) errors.push({ field: `redirectUris[${i}]`, reason: 'registered twice' });
      else redirectUris.push(u as string);
    });
  }
  if (confidential && !redirectUris.some((u) => u.startsWith('https:'))) {
    errors.push({ field: 'confidential', reason: 'a client secret is for a website with a server: register its https redirect address' });
  }
  const testers = testersProblem(input.testers, errors);
  let owner = defaults.owner;
  if (input.owner !== undefined) {
    if (typeof input.owner !== 'string' || !PERSON.test(input.owner)) errors.push({ field: 'owner', reason: 'must be a person id usr_...' });
    else owner = input.owner;
  }
  let clientId = newId('cid');
  if (input.clientId !== undefined) {
    if (typeof input.clientId !== 'string' || !/^[A-Za-z0-9._-]{3,100}$/.test(input.clientId)) {
      errors.push({ field: 'clientId', reason: '3 to 100 letters, digits, dot, dash or underscore' });
    } else if (defaults.takenClientIds.has(input.clientId)) {
      errors.push({ field: 'clientId', reason: 'already registered' });
    } else clientId = input.clientId;
  }
  if (errors.length > 0) return { errors };

  // A web or desktop app has no computer of its own: it always holds cards:read:all.
  if (redirectUris.length > 0) {
    for (const s of ['cards:read', 'cards:read:all'] as const) if (!scopes.includes(s)) scopes.push(s);
  }
  const clientSecret = confidential ? newSecret(32) : undefined;
  const app: AppRecord = {
    id: newId('app'),
    clientId,
    name: (name as string).trim(),
    publisher: typeof input.publisher === 'string' ? input.publisher.trim() : (domain ?? (name as string).trim()),
    ...(domain ? { domain } : {}),
    verification: input.verified === true ? 'verified' : 'unverified',
    scopes,
    redirectUris,
    confidential,
    ...(clientSecret ? { secretHash: sha256b64url(clientSecret) } : {}),
    owner,
    testers,
    proofToken: newSecret(18),
    domainProven: input.verified === true,
    removed: false,
    createdAt: defaults.now,
  };
  return clientSecret ? { app, clientSecret } : { app };
}

export function builtInApp(owner: string, now: number): AppRecord {
  return {
    id: 'app_assistant-cards-vscode',
    clientId: BUILT_IN_CLIENT_ID,
    name: 'Assistant Cards for VS Code',
    publisher: 'Assistant Cards',
    verification: 'unverified',
    scopes: [...SCOPES],
    redirectUris: [],
    confidential: false,
    owner,
    testers: [],
    proofToken: newSecret(18),
    domainProven: false,
    removed: false,
    createdAt: now,
  };
}

/** May this person sign in to the app? Unverified apps: the owner and the named testers only. */
export function mayUse(app: AppRecord, userId: string): boolean {
  return app.verification === 'verified' || app.owner === userId || app.testers.includes(userId);
}

/** The public view of an app on the control surface (never the secret or its hash). */
export function appView(app: AppRecord) {
  return {
    id: app.id,
    clientId: app.clientId,
    name: app.name,
    publisher: app.publisher,
    ...(app.domain ? { domain: app.domain } : {}),
    verified: app.verification === 'verified',
    verification: app.verification,
    scopes: app.scopes,
    redirectUris: app.redirectUris,
    confidential: app.confidential,
    owner: app.owner,
    testers: app.testers,
    domainProven: app.domainProven,
    removed: app.removed,
  };
}
