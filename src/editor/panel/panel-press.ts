// The press a card panel's message asks the core for. A message that carries nothing but its
// version (its row in shared/card-actions.ts: `carries: 'version'`) is the press of the same name:
// a new action of that kind needs no line here (and one the core has no row for does not compile);
// one that carries what the person chose maps it below.
import type { PressAction } from '../../sync';
import type { ActionMessage } from '../../shared/protocol';

/** `timeZone`: the person's, for Later. */
export function pressOf(m: ActionMessage, timeZone: string): PressAction {
  switch (m.type) {
    case 'answer': return { type: 'answer', answer: m.body };
    case 'message': return { type: 'message', body: m.body, via: 'text' };
    case 'later': return { type: 'later', until: m.until, timeZone };
    case 'delegate': return {
      type: 'delegate', to: { assistantId: m.assistantId, ...(m.agentId ? { agentId: m.agentId } : {}) }, mode: m.mode,
      ...(m.note ? { note: m.note } : {}),
    };
    // Got it, Undo, Back, Take back (every `version` row): the version alone.
    default: return { type: m.type };
  }
}
