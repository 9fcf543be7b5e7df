// Which computer this window runs on, as the signed-in grant names it: the one word for it in
// the editor (terminal matching keeps to this computer's sessions; a return the person made here
// is not told back to them).
import type { ConnectionState } from './contract';

/** This computer's id while online; undefined otherwise (not known, or not read yet). */
export function thisComputer(s: ConnectionState): string | undefined {
  return s.kind === 'online' ? s.me.grant.machine?.id : undefined;
}
