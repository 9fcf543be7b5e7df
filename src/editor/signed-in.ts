// The one test of "signed in" in the editor, apart from live-parts.ts (which re-exports it) so that
// what activate() loads can ask it without loading the live set and the client core behind it.
import type { ConnectionState } from '../sync';

/** Signed in: online, or offline with the sign-in kept. The one test of it in the editor. */
export const isSignedIn = (s: ConnectionState): boolean => s.kind === 'online' || s.kind === 'offline';
