// The sign-in's tokens. The access token is refreshed shortly before it expires; a rotated
// refresh token is written to the store BEFORE the new access token is used (a crash then never
// leaves only a spent refresh token behind). One refresh at a time: a promise per process and a
// lock file shared by every window. On invalid_grant the store is read again first, because
// another window may have rotated the refresh token: only if it did not is the person signed out.
// A refresh whose answer was lost after it was sent is never repeated with the same refresh token:
// if the service rotated it, a repeat is reuse and revokes the sign-in (DESIGN, RFC 9700). The
// sign-in ends here instead, told as lost on the way, not as refused (docs/decisions.md).
import { NetworkError, OAuthRefusalError } from '../api/errors';
import type { RequestAuth } from '../api/client';
import { Emitter, silentLogger } from '../api/runtime';
import type { Clock, Logger } from '../api/runtime';
import type { TokenResponse } from '../api/schemas';
import type { DpopKey } from './dpop';
import { SignedOutError, TokenOriginError } from './errors';
import type { SignInEnd } from './errors';
import { LocalLock } from './file-lock';
import type { Release } from './file-lock';
import type { OAuthEndpoints } from './oauth';
import type { SecretStore } from './secret-store';
import type { SignInSlot } from './sign-in-slot';

/** Refresh this long before the access token expires (15 min lifetime). */
export const REFRESH_MARGIN_MS = 90_000;

/**
 * A token answer without `expires_in` (only RECOMMENDED in RFC 6749 section 5.1): the spec's access
 * token lifetime. Were it shorter, the 401 invalid_token renews it (renewAfterRejection).
 */
export const DEFAULT_EXPIRES_IN_SECONDS = 900;

export interface StoredTokens {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms on the injected clock. */
  expiresAt: number;
  scope: string;
  /** The service origin that issued the tokens; they are never sent anywhere else. */
  origin: string;
  computerId: string;
}

export interface TokenSetOptions {
  store: SecretStore;
  /** The service and computer this sign-in belongs to (the store keys and the origin check). */
  slot: SignInSlot;
  endpoints: OAuthEndpoints;
  key: DpopKey;
  clock: Clock;
  lock?: { acquire(): Promise<Release> };
  logger?: Logger;
}

/** The reason given when the service refused the refresh token (revoked, replaced or reused). */
export const REFRESH_REFUSED = 'refresh refused';
/** The reason given when a refresh's answer was lost after the request may have arrived. */
export const RENEWAL_LOST = 'renewal answer lost';

export class TokenSet implements RequestAuth {
  private current: StoredTokens | undefined;
  private refreshing: Promise<StoredTokens> | undefined;
  private readonly signedOut = new Emitter<{ reason: string }>();
  /** Fires once the sign-in is gone (refresh refused and no other window rotated it). */
  readonly onDidSignOut = this.signedOut.event;
  private readonly lock: { acquire(): Promise<Release> };
  private readonly log: Logger;

  constructor(private readonly o: TokenSetOptions) {
    this.lock = o.lock ?? new LocalLock();
    this.log = o.logger ?? silentLogger;
  }

  get key(): DpopKey {
    return this.o.key;
  }

  /** The store key of this sign-in's tokens (windows watch it for changes). */
  get storeKey(): string {
    return this.o.slot.tokensKey;
  }

  /** Throws unless `url` is on the origin that issued this sign-in's tokens. */
  private assertOrigin(url: string): void {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      origin = url;
    }
    if (origin !== this.o.slot.origin) throw new TokenOriginError(this.o.slot.origin, origin);
  }

  /** Reads the stored sign-in; true when there is one. */
  async load(): Promise<boolean> {
    this.current = await this.readStore();
    return this.current !== undefined;
  }

  get signedIn(): boolean {
    return this.current !== undefined;
  }

  get scopes(): string[] {
    return this.current?.scope.split(' ').filter(Boolean) ?? [];
  }

  /** Stores a new token response (persist first), then uses it. */
  async adopt(t: TokenResponse): Promise<void> {
    if (!t.refresh_token) throw new SignedOutError('The service issued no refresh token.');
    const next: StoredTokens = {
      accessToken: t.access_token,
      refreshToken: t.refresh_token,
      expiresAt: this.o.clock.now() + (t.expires_in ?? DEFAULT_EXPIRES_IN_SECONDS) * 1000,
      scope: t.scope ?? '',
      origin: this.o.slot.origin,
      computerId: this.o.slot.computerId,
    };
    await this.o.store.store(this.o.slot.tokensKey, JSON.stringify(next));
    this.current = next;
    this.lastSignOutReason = undefined;
  }

  /** How this process ended the sign-in, for the callers that come after the refresh that did. */
  private get endedHere(): SignInEnd | undefined {
    return this.lastSignOutReason === REFRESH_REFUSED ? 'refused' : this.lastSignOutReason === RENEWAL_LOST ? 'renewal-lost' : undefined;
  }

  async accessToken(): Promise<string> {
    if (!this.current) this.current = await this.readStore();
    if (!this.current) throw new SignedOutError(undefined, this.endedHere);
    if (this.o.clock.now() < this.current.expiresAt - REFRESH_MARGIN_MS) return this.current.accessToken;
    return (await this.refresh()).accessToken;
  }

  async renewAfterRejection(rejected: string): Promise<string> {
    if (this.current && this.current.accessToken !== rejected && this.o.clock.now() < this.current.expiresAt - REFRESH_MARGIN_MS) {
      return this.current.accessToken;
    }
    return (await this.refresh(rejected)).accessToken;
  }

  /** Every /v1 request asks for its proof here: the one place a token is bound to an address. */
  proof(htm: string, url: string, accessToken: string | undefined, nonce: string | undefined): Promise<string> {
    if (accessToken !== undefined) this.assertOrigin(url);
    return this.o.key.proof({ htm, url, accessToken, nonce, iat: Math.floor(this.o.clock.now() / 1000) });
  }

  /** One refresh at a time in this process; the lock makes it one across windows. */
  refresh(rejectedAccessToken?: string): Promise<StoredTokens> {
    this.refreshing ??= this.refreshLocked(rejectedAccessToken).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** Why this process last ended the sign-in (its store change reaches every window alike). */
  lastSignOutReason: string | undefined;

  async signOut(reason = 'signed out'): Promise<void> {
    this.lastSignOutReason = reason;
    this.current = undefined;
    await this.o.store.delete(this.o.slot.tokensKey);
    this.signedOut.fire({ reason });
  }

  private async refreshLocked(rejected: string | undefined): Promise<StoredTokens> {
    const release = await this.lock.acquire();
    try {
      // Another window may have refreshed while we waited for the lock.
      const stored = await this.readStore();
      if (!stored) {
        this.current = undefined;
        throw new SignedOutError('Signed out in another window.');
      }
      const fresh = this.o.clock.now() < stored.expiresAt - REFRESH_MARGIN_MS && stored.accessToken !== rejected;
      if (fresh) {
        this.current = stored;
        return stored;
      }
      let t: TokenResponse;
      this.assertOrigin(this.o.endpoints.origin);
      try {
        t = await this.o.endpoints.refresh(stored.refreshToken, this.o.key);
      } catch (e) {
        if (e instanceof OAuthRefusalError && e.error === 'invalid_grant') {
          const again = await this.readStore();
          if (again && again.refreshToken !== stored.refreshToken) {
            this.log.info('refresh token was rotated by another window; using it');
            this.current = again;
            return again;
          }
          this.log.warn('sign-in ended: refresh refused', { error: e.error });
          await this.signOut(REFRESH_REFUSED);
          throw new SignedOutError('The sign-in ended. Sign in again.', 'refused');
        }
        if (e instanceof NetworkError && e.mayHaveArrived) {
          // Rotated or not, nobody can tell: a repeat could only be reuse. Forget the token.
          this.log.warn('sign-in ended: the answer to a refresh was lost', { cause: e.causeMessage });
          await this.signOut(RENEWAL_LOST);
          throw new SignedOutError('The connection dropped while renewing the sign-in. Sign in again.', 'renewal-lost');
        }
        throw e;
      }
      await this.adopt(t);
      this.log.info('access token refreshed');
      return this.current!;
    } finally {
      await release();
    }
  }

  private async readStore(): Promise<StoredTokens | undefined> {
    const raw = await this.o.store.get(this.o.slot.tokensKey);
    if (!raw) return undefined;
    try {
      const v = JSON.parse(raw) as Partial<StoredTokens>;
      // A record naming another service or computer is not this sign-in, whatever key it sits under.
      const ours = v.origin === this.o.slot.origin && v.computerId === this.o.slot.computerId;
      if (ours && typeof v.accessToken === 'string' && typeof v.refreshToken === 'string' && typeof v.expiresAt === 'number') {
        return {
          accessToken: v.accessToken, refreshToken: v.refreshToken, expiresAt: v.expiresAt, scope: typeof v.scope === 'string' ? v.scope : '',
          origin: this.o.slot.origin, computerId: this.o.slot.computerId,
        };
      }
    } catch {
      // fall through: a damaged entry is no sign-in
    }
    return undefined;
  }
}
