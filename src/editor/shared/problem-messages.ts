// Every problem code the service can answer with, as the person reads it: what happened and what
// to do next. One table, used by the card panel, the commands and notifications.
import type { ShownProblem } from './protocol';

interface Entry { message: string; next: string }

const TABLE: Record<string, Entry> = {
  invalid: { message: 'The service could not take what was sent.', next: 'Check the fields and try again.' },
  app_not_available: { message: 'This app is no longer allowed on your account.', next: 'Sign in again, or ask the app\'s owner to add you as a tester.' },
  high_stakes: { message: 'This card spends money, cannot be undone, or goes public, so it can only be answered in the service.', next: 'Open it in the browser.' },
  area_change: { message: 'The card moved to another area after you saw it. Nothing was sent.', next: 'Read it again and answer.' },
  forbidden: { message: 'This sign-in may not do that.', next: 'Sign in again and allow the missing permission.' },
  not_your_answer: { message: 'That answer was given in another app, so it cannot be undone here.', next: 'Write to the assistant instead.' },
  not_found: { message: 'This card no longer exists, or it is out of this sign-in\'s reach.', next: 'Refresh the cards.' },
  version_conflict: { message: 'The card changed after you saw it. Nothing was sent.', next: 'Read the new version and answer again.' },
  not_waiting: { message: 'This card is no longer waiting on you.', next: 'Refresh to see where it is now.' },
  delegated: { message: 'This card is with a helper.', next: 'Take it back first.' },
  hold_over: { message: 'The 5 seconds to undo have passed; the assistant has heard your answer.', next: 'Write to the assistant to change course.' },
  conflict: { message: 'Something else changed this card at the same moment.', next: 'Refresh and try again.' },
  idempotency_in_progress: { message: 'The same action is still being processed.', next: 'Wait a moment; it will finish by itself.' },
  idempotency_mismatch: { message: 'A retry did not match the first attempt, so nothing was sent.', next: 'Refresh the card and answer again.' },
  rate_limited: { message: 'Too many requests in a short time.', next: 'Wait a little; it will work again shortly.' },
  server_error: { message: 'The service had an error. Nothing was changed.', next: 'Try again in a moment.' },
  not_available: { message: 'This kind of answer is not available for this card.', next: 'Write to the assistant, or open it in the browser.' },
  unavailable: { message: 'The service is unavailable right now.', next: 'Try again in a minute.' },
  // Client-side codes (no service answer).
  offline: { message: 'The service cannot be reached.', next: 'Check the connection; the cards refresh by themselves once it is back.' },
  signed_out: { message: 'You are signed out.', next: 'Sign in to Assistant Cards.' },
  insufficient_scope: { message: 'This sign-in was not allowed to do that.', next: 'Sign out and sign in again, allowing that permission.' },
  invalid_token: { message: 'Your sign-in has ended.', next: 'Sign in again.' },
  timeout: { message: 'The service did not answer in time; it is not known whether the action arrived.', next: 'Refresh the card to see whether it did before trying again.' },
  press_refused: { message: 'That action was not sent because it did not come straight from a press.', next: 'Press the button again.' },
  bad_input: { message: 'That input is not valid.', next: 'Correct it and try again.' },
};

export const KNOWN_PROBLEM_CODES = Object.keys(TABLE);

export function problemMessage(code: string, extra?: { retryAfterS?: number; url?: string; detail?: string }): ShownProblem {
  const e = TABLE[code] ?? { message: 'Something went wrong.', next: 'Try again; if it keeps happening, open the log (Assistant Cards: Show Log).' };
  let next = e.next;
  if (code === 'rate_limited' && extra?.retryAfterS) next = `Try again in ${extra.retryAfterS} s.`;
  if (code === 'bad_input' && extra?.detail) return { code, message: extra.detail, next };
  return { code, message: e.message, next, ...(extra?.url ? { url: extra.url } : {}) };
}
