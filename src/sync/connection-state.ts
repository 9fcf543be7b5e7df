// Where the sign-in and the service stand, as one pure reducer: the session reports what
// happened, the reducer says what the person sees. No I/O here; the session does the work (reads,
// sign-out, presence) and decides it from the state before and after.
import type { Me } from '../api/schemas';
import type { ConnectionState, SignOutReason } from './contract';

export interface Connection {
  /** What the person sees. */
  readonly shown: ConnectionState;
  /** Signed in and syncing: the feed, the reads and presence run. */
  readonly syncing: boolean;
  /** The device flow shows its code: background sync does not overwrite that. */
  readonly inDeviceFlow: boolean;
  /** Who is signed in, once the service said so ("online" needs it). */
  readonly me: Me | undefined;
}

export type ConnectionEvent =
  /** No computer identity file, or one the service rejects. */
  | { type: 'not-set-up'; reason: string }
  /** Started with no stored sign-in. */
  | { type: 'no-sign-in' }
  | { type: 'device-flow-started' }
  | { type: 'device-code'; userCode: string; verificationUri: string; verificationUriComplete: string | undefined }
  /** The device flow ended with a stored sign-in. */
  | { type: 'device-flow-done' }
  /** The device flow failed or was cancelled; `before` is what showed when it began. */
  | { type: 'device-flow-failed'; before: ConnectionState; notSetUp?: string }
  /** Signed in again in a window that was syncing: same sync, new grant (me undefined: not read). */
  | { type: 'signed-in-again'; me: Me | undefined }
  | { type: 'sync-started' }
  | { type: 'sync-stopped' }
  | { type: 'me'; me: Me }
  /** A request succeeded. */
  | { type: 'service-answered' }
  /** The service could not be reached, or answered with a server error. */
  | { type: 'service-unreachable'; at: number; message: string }
  | { type: 'signed-out'; reason: SignOutReason };

export const INITIAL_CONNECTION: Connection = { shown: { kind: 'signed-out' }, syncing: false, inDeviceFlow: false, me: undefined };

/** The next state; the same object when nothing changed. */
export function nextConnection(s: Connection, e: ConnectionEvent): Connection {
  switch (e.type) {
    case 'not-set-up':
      return s.syncing ? s : { ...s, shown: { kind: 'not-set-up', reason: e.reason } };
    case 'no-sign-in':
      return { ...s, shown: { kind: 'signed-out' } };
    case 'device-flow-started':
      return s.inDeviceFlow ? s : { ...s, inDeviceFlow: true };
    case 'device-code':
      return { ...s, shown: { kind: 'signing-in', userCode: e.userCode, verificationUri: e.verificationUri, verificationUriComplete: e.verificationUriComplete } };
    case 'device-flow-done':
      return s.inDeviceFlow ? { ...s, inDeviceFlow: false } : s;
    case 'device-flow-failed': {
      const done = { ...s, inDeviceFlow: false };
      if (e.notSetUp !== undefined && !s.syncing) return { ...done, shown: { kind: 'not-set-up', reason: e.notSetUp } };
      // A failed or cancelled sign-in leaves things as they were (a window still signed in stays so).
      if (s.shown.kind === 'signing-in') return { ...done, shown: e.before.kind === 'signing-in' ? { kind: 'signed-out' } : e.before };
      return done;
    }
    case 'signed-in-again': {
      const me = e.me ?? s.me;
      return me ? { ...s, me, shown: { kind: 'online', me } } : s;
    }
    case 'sync-started':
      return s.syncing ? s : { ...s, syncing: true };
    case 'sync-stopped':
      return s.syncing ? { ...s, syncing: false } : s;
    case 'me':
      return { ...s, me: e.me };
    case 'service-answered':
      if (!s.syncing || !s.me || s.shown.kind === 'online' || s.inDeviceFlow) return s;
      return { ...s, shown: { kind: 'online', me: s.me } };
    case 'service-unreachable':
      if (s.shown.kind === 'offline' || s.inDeviceFlow || !s.syncing) return s;
      return { ...s, shown: { kind: 'offline', since: e.at, lastError: e.message } };
    case 'signed-out':
      return { ...s, me: undefined, shown: { kind: 'signed-out', reason: e.reason } };
  }
}
