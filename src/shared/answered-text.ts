// The words after an answer pressed from a notification, and the bound of a button's label: apart
// from notify-rules.ts so the action table (card-actions.ts), which the webview and the palette's
// command names import, does not bring the notifications' rules with it.
import type { Card } from '../api/schemas';
import { t } from './l10n';
import { plainText } from './plain-text';

/** A button label's length: VS Code's notification buttons do not wrap. A longer label is not a button. */
export const BUTTON_MAX = 30;

/** One line of hostile text, short enough for a button, inert. */
export function shortLabel(text: string, max = BUTTON_MAX): string {
  return plainText(text, max);
}

/** After a press from the notification: what was answered, and how long Undo holds. */
export function answeredText(card: Pick<Card, 'title'>, label: string, secondsLeft: number): string {
  // The sentence ends its own words: a label's closing full stop is left out ("Choose Beta.").
  return t('Answered "{0}" with {1}. The assistant hears it in {2} s.', plainText(card.title, 60), shortLabel(label).replace(/\.+$/, ''), secondsLeft);
}
