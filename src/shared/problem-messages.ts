// Every problem code the service can answer with, as the person reads it: what happened and what
// to do next. One table, used by the card panel, the commands and notifications.
import { t } from './l10n';
import { plainText } from './plain-text';
import type { ShownField, ShownProblem } from './protocol';

interface Entry { message: string; next: string }

// A function, not a constant: the words are looked up when shown, after the translations arrived.
const table = (): Record<string, Entry> => ({
  invalid: { message: t('The service could not take what was sent.'), next: t('Check the fields and try again.') },
  app_not_available: { message: t('This app is no longer allowed on your account.'), next: t('Sign in again, or ask the app\'s owner to add you as a tester.') },
  high_stakes: { message: t('This card spends money, cannot be undone, or goes public, so it can only be answered in the service.'), next: t('Open it in the browser.') },
  area_change: { message: t('The card moved to another area after you saw it. Nothing was sent.'), next: t('Read it again and answer.') },
  forbidden: { message: t('This sign-in may not do that.'), next: t('Sign in again and allow the missing permission.') },
  not_your_answer: { message: t('That answer was given in another app, so it cannot be undone here.'), next: t('Write to the assistant instead.') },
  not_found: { message: t('This card no longer exists, or it is out of this sign-in\'s reach.'), next: t('Refresh the cards.') },
  version_conflict: { message: t('The card changed after you saw it. Nothing was sent.'), next: t('Read the new version and answer again.') },
  not_waiting: { message: t('This card is no longer waiting on you.'), next: t('Refresh to see where it is now.') },
  delegated: { message: t('This card is with a helper.'), next: t('Take it back first.') },
  hold_over: { message: t('The 5 seconds to undo have passed; the assistant has heard your answer.'), next: t('Write to the assistant to change course.') },
  conflict: { message: t('Something else changed this card at the same moment.'), next: t('Refresh and try again.') },
  idempotency_in_progress: { message: t('The same action is still being processed.'), next: t('Wait a moment; it will finish by itself.') },
  idempotency_mismatch: { message: t('A retry did not match the first attempt, so nothing was sent.'), next: t('Refresh the card and answer again.') },
  rate_limited: { message: t('Too many requests in a short time.'), next: t('Wait a little; it will work again shortly.') },
  server_error: { message: t('The service had an error. Nothing was changed.'), next: t('Try again in a moment.') },
  not_available: { message: t('This kind of answer is not available for this card.'), next: t('Write to the assistant, or open it in the browser.') },
  unavailable: { message: t('The service is unavailable right now.'), next: t('Try again in a minute.') },
  // Client-side codes (no service answer).
  offline: { message: t('The service cannot be reached.'), next: t('Check the connection; the cards refresh by themselves once it is back.') },
  signed_out: { message: t('You are signed out.'), next: t('Sign in to Assistant Cards.') },
  insufficient_scope: { message: t('This sign-in was not allowed to do that.'), next: t('Sign out and sign in again, allowing that permission.') },
  invalid_token: { message: t('Your sign-in has ended.'), next: t('Sign in again.') },
  timeout: { message: t('The service did not answer in time; it is not known whether the action arrived.'), next: t('Refresh the card to see whether it did before trying again.') },
  press_refused: { message: t('That action was not sent because it did not come straight from a press.'), next: t('Press the button again.') },
  bad_input: { message: t('That input is not valid.'), next: t('Correct it and try again.') },
});

export const KNOWN_PROBLEM_CODES = Object.keys(table());

/** What a failed action carries besides its code (sync/press-outcome.ts PressProblem has these). */
export interface ProblemExtra {
  retryAfterS?: number;
  url?: string;
  /** Our own words (bad_input's message). */
  detail?: string;
  /** The service's words: its problem `detail` (hostile: made plain here). */
  serviceDetail?: string;
  /** An `invalid` problem's field errors (hostile: made plain here). */
  fields?: readonly { field: string; reason: string }[];
  /** insufficient_scope: the scope the sign-in lacks. */
  scope?: string;
}

const MAX_FIELDS = 10;

export function problemMessage(code: string, extra: ProblemExtra = {}): ShownProblem {
  const e = table()[code] ?? { message: t('Something went wrong.'), next: t('Try again; if it keeps happening, open the log (Assistant Cards: Show Log).') };
  let { message, next } = e;
  if (code === 'rate_limited' && extra.retryAfterS) next = t('Try again in {0} s.', extra.retryAfterS);
  if (code === 'bad_input' && extra.detail) return { code, message: extra.detail, next };
  const scope = extra.scope ? plainText(extra.scope, 60) : undefined;
  if (code === 'insufficient_scope' && scope) {
    message = t('This sign-in was not allowed to do that: it lacks the permission {0}.', scope);
    next = t('Sign out and sign in again, allowing {0}.', scope);
  }
  const detail = extra.serviceDetail ? plainText(extra.serviceDetail, 300) : '';
  const fields: ShownField[] = (extra.fields ?? []).slice(0, MAX_FIELDS)
    .map((f) => ({ field: plainText(f.field, 60), reason: plainText(f.reason, 200) }))
    .filter((f) => f.field || f.reason);
  return {
    code, message, next,
    ...(extra.url ? { url: extra.url } : {}),
    ...(detail ? { detail } : {}),
    ...(fields.length ? { fields } : {}),
    ...(scope ? { scope } : {}),
  };
}

/**
 * The whole problem as one notification's text: what happened, the service's words and the
 * fields it refused, then what to do next. Every part is already plain (problemMessage).
 */
export function problemText(p: ShownProblem): string {
  const parts = [p.message];
  if (p.detail) parts.push(t('The service says: {0}', p.detail));
  if (p.fields?.length) parts.push(t('Refused: {0}.', p.fields.map((f) => (f.reason ? t('{0}: {1}', f.field, f.reason) : f.field)).join('; ')));
  parts.push(p.next);
  return parts.join(' ');
}
