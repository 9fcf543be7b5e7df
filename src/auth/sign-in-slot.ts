// Where one sign-in lives: its tokens, its DPoP key and its cross-window refresh lock are keyed
// by the service origin that issued them AND the computer (identity file id) they were issued
// to. A different service address or a different computer sharing the same SecretStore (remote
// windows: one store on the person's computer, identity files on each remote) finds its own slot.
import { createHash } from 'node:crypto';
import type { Logger } from '../api/runtime';
import type { SecretStore } from './secret-store';

/** The fixed keys of earlier versions: a sign-in stored there says neither service nor computer. */
export const LEGACY_TOKENS_SECRET = 'assistantCards.tokens';
export const LEGACY_DPOP_KEY_SECRET = 'assistantCards.dpopKey';

export interface SignInSlot {
  /** `scheme://host[:port]` of the service that issued the tokens. */
  origin: string;
  /** The identity file's `id`. */
  computerId: string;
  tokensKey: string;
  dpopKeyKey: string;
  /** File name (no path) of the refresh lock; safe for any file system. */
  lockName: string;
}

export function signInSlot(baseUrl: string, computerId: string): SignInSlot {
  const origin = new URL(baseUrl).origin;
  const where = `${origin}#${computerId}`;
  const digest = createHash('sha256').update(where).digest('hex').slice(0, 20);
  return {
    origin,
    computerId,
    tokensKey: `${LEGACY_TOKENS_SECRET}@${where}`,
    dpopKeyKey: `${LEGACY_DPOP_KEY_SECRET}@${where}`,
    lockName: `refresh-${digest}`,
  };
}

/**
 * Drops a sign-in under the old fixed keys. It cannot be matched to a service or a computer
 * (the record carries neither), and sending it anywhere is the leak this slot closes: the person
 * signs in once more (docs/decisions.md "Hardening: sign-in storage").
 */
export async function dropLegacySignIn(store: SecretStore, log: Logger): Promise<boolean> {
  const had = (await store.get(LEGACY_TOKENS_SECRET)) !== undefined || (await store.get(LEGACY_DPOP_KEY_SECRET)) !== undefined;
  if (!had) return false;
  await store.delete(LEGACY_TOKENS_SECRET);
  await store.delete(LEGACY_DPOP_KEY_SECRET);
  log.info('dropped a sign-in stored by an earlier version (it named no service); sign in again');
  return true;
}
