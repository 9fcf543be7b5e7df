// Everything the sign-in side remembers: apps, computers, pending device and browser sign-ins,
// authorization codes, sign-ins (grants) and their tokens.
import type { Scope } from '../../api/schemas';
import type { Grant } from '../context';
import { builtInApp, type AppRecord } from './apps';
import { accessTokenHash } from './dpop';
import type { PublicP256 } from './jwk';
import { newId, newSecret } from './ids';
import { MemoryStore, type SandboxStore } from '../store/store';
import type { Table } from '../store/table';
import { TokenTable } from '../store/token-table';

export const ACCESS_TOKEN_S = 900;
export const GRANT_LIFE_MS = 30 * 24 * 3600_000;
export const DEVICE_CODE_S = 600;
export const DEVICE_INTERVAL_S = 3;
export const SLOW_DOWN_STEP_S = 5;
export const AUTH_CODE_MS = 60_000;
export const AUTH_REQUEST_MS = 10 * 60_000;

export interface MachineRecord {
  id: string;
  name: string;
  publicJwk: PublicP256;
}

export interface DeviceRecord {
  deviceCode: string;
  userCode: string;
  appId: string;
  scopes: Scope[];
  machine: { id: string; name: string };
  /** Thumbprint of the app's DPoP key, from the computer attestation. */
  jkt: string;
  createdAt: number;
  expiresAt: number;
  interval: number;
  lastPollAt?: number;
  state: 'pending' | 'approved' | 'denied' | 'used';
  approvedScopes?: Scope[];
  userId?: string;
  deniedReason?: string;
  /** Hidden in the approval page's form: a POST without it did not come from that page. */
  formToken: string;
}

export interface AuthRequestRecord {
  id: string;
  appId: string;
  redirectUri: string;
  state?: string;
  scopes: Scope[];
  codeChallenge: string;
  dpopJkt?: string;
  expiresAt: number;
  done: boolean;
}

export interface CodeRecord {
  code: string;
  appId: string;
  redirectUri: string;
  scopes: Scope[];
  codeChallenge: string;
  dpopJkt?: string;
  userId: string;
  expiresAt: number;
  used: boolean;
  grantId?: string;
}

export interface GrantRecord extends Grant {
  revoked: boolean;
  /** Bound to a computer's key: renews on every use instead of lasting a fixed 30 days. */
  renews: boolean;
}

export interface AccessRecord {
  grantId: string;
  expiresAt: number;
  ath: string;
}

export interface RefreshRecord {
  grantId: string;
  used: boolean;
}

export interface TokenSet {
  access_token: string;
  token_type: 'DPoP' | 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/**
 * Apps, computers, sign-ins and their tokens are tables of the sandbox's store (they outlive a
 * restart; tokens kept by their hash); sign-ins under way (device and browser flows, codes) live
 * only as long as the process.
 */
export class AuthStore {
  readonly apps: Table<AppRecord>;
  readonly machines: Table<MachineRecord>;
  readonly devices = new Map<string, DeviceRecord>();
  readonly userCodes = new Map<string, DeviceRecord>();
  readonly authRequests = new Map<string, AuthRequestRecord>();
  readonly codes = new Map<string, CodeRecord>();
  readonly grants: Table<GrantRecord>;
  readonly access: TokenTable<AccessRecord>;
  readonly refresh: TokenTable<RefreshRecord>;

  constructor(
    private readonly now: () => number,
    private readonly person: { userId: string; workspaceId: string },
    store: SandboxStore = new MemoryStore(),
  ) {
    this.apps = store.table('app');
    this.machines = store.table('machine');
    this.grants = store.table('grant');
    this.access = new TokenTable(store.table('access'));
    this.refresh = new TokenTable(store.table('refresh'));
    // A store that kept its sign-ins keeps them; a new one starts with the built-in app.
    if (this.apps.size === 0) this.reset();
  }

  reset(): void {
    for (const m of [this.apps, this.machines, this.devices, this.userCodes, this.authRequests, this.codes, this.grants, this.access, this.refresh]) {
      m.clear();
    }
    const app = builtInApp(this.person.userId, this.now());
    this.apps.set(app.id, app);
  }

  appByClientId(clientId: string): AppRecord | undefined {
    for (const app of this.apps.values()) if (app.clientId === clientId) return app;
    return undefined;
  }

  /** A grant that is neither revoked nor past its life. */
  liveGrant(id: string): GrantRecord | undefined {
    const g = this.grants.get(id);
    return g && !g.revoked && g.expiresAt > this.now() ? g : undefined;
  }

  revokeGrant(id: string): void {
    const g = this.grants.get(id);
    if (!g) return;
    g.revoked = true;
    this.grants.set(id, g);
  }

  /**
   * Makes a sign-in, replacing the one it supersedes: the same app with the same key (so again on
   * the same computer); a website's (bearer) sign-in replaces the person's earlier one of that app.
   */
  createGrant(input: {
    app: AppRecord;
    userId: string;
    scopes: Scope[];
    machine?: { id: string; name: string };
    jkt?: string;
  }): GrantRecord {
    const now = this.now();
    for (const g of this.grants.values()) {
      if (g.revoked || g.appId !== input.app.id || g.userId !== input.userId) continue;
      // A copy of an app is known by its key: the same key signing in again (on this computer or
      // any) replaces its sign-in; another copy with its own key keeps its own.
      const sameKey = input.jkt !== undefined && g.jkt === input.jkt;
      const bothBearer = input.jkt === undefined && g.jkt === undefined;
      if (sameKey || bothBearer) {
        g.revoked = true;
        this.grants.set(g.id, g);
      }
    }
    const reach: Grant['reach'] = input.machine && !input.scopes.includes('cards:read:all') ? 'machine' : 'all';
    const grant: GrantRecord = {
      id: newId('apg'),
      userId: input.userId,
      workspaceId: this.person.workspaceId,
      appId: input.app.id,
      clientId: input.app.clientId,
      appName: input.app.name,
      appVerified: input.app.verification === 'verified',
      scopes: input.scopes,
      reach,
      ...(input.machine ? { machine: { ...input.machine } } : {}),
      ...(input.jkt ? { jkt: input.jkt } : {}),
      createdAt: now,
      expiresAt: now + GRANT_LIFE_MS,
      revoked: false,
      renews: input.machine !== undefined && input.jkt !== undefined,
    };
    this.grants.set(grant.id, grant);
    return grant;
  }

  /** A new access and refresh token for the grant. */
  issueTokens(grant: GrantRecord): TokenSet {
    const now = this.now();
    this.sweepTokens(now);
    const accessToken = newSecret(32);
    const refreshToken = newSecret(32);
    this.access.set(accessToken, { grantId: grant.id, expiresAt: now + ACCESS_TOKEN_S * 1000, ath: accessTokenHash(accessToken) });
    this.refresh.set(refreshToken, { grantId: grant.id, used: false });
    if (grant.renews) grant.expiresAt = Math.max(grant.expiresAt, now + GRANT_LIFE_MS);
    return {
      access_token: accessToken,
      token_type: grant.jkt ? 'DPoP' : 'Bearer',
      expires_in: ACCESS_TOKEN_S,
      refresh_token: refreshToken,
      scope: grant.scopes.join(' '),
    };
  }

  private lastSweep = 0;

  /** Forgets expired access tokens now and then, so a long bench run does not grow memory. */
  private sweepTokens(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    this.access.deleteWhere((rec) => rec.expiresAt <= now);
    for (const [code, rec] of this.devices) {
      if (rec.expiresAt + 3600_000 <= now) {
        this.devices.delete(code);
        this.userCodes.delete(rec.userCode);
      }
    }
  }
}
