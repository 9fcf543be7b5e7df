// Which computer a card comes from, in the person's words (plain text only: the name is the
// service's). The Cards tree names it on every row when every computer's cards show; a card whose
// assistant runs on another computer offers no terminal here and says where it runs instead.
import type { Card, CardListEntry } from '../api/schemas';
import { t } from './l10n';
import { plainText } from './plain-text';

/** The computer the card's assistant runs on, when the card (read whole) names one. */
export function computerOf(c: CardListEntry): { id: string; name: string } | undefined {
  const m = (c as Card).machine;
  return m && typeof m.id === 'string' && typeof m.name === 'string' ? m : undefined;
}

/**
 * The other computer's name, when the card's assistant runs on a computer that is not this one.
 * Undefined when it runs here, or when either computer is not known (nothing is claimed on a guess).
 */
export function elsewhereName(c: CardListEntry, thisComputerId: string | undefined): string | undefined {
  const m = computerOf(c);
  if (!m || thisComputerId === undefined || m.id === thisComputerId) return undefined;
  return plainText(m.name, 80) || m.id;
}

/** The row's words for its computer: a short part for the description, a line for the tooltip. */
export function computerWords(c: CardListEntry, thisComputerId: string | undefined): { short: string; tip: string } | undefined {
  const m = computerOf(c);
  if (!m) return undefined;
  const name = plainText(m.name, 40) || m.id;
  if (m.id === thisComputerId) return { short: t('{0} (this computer)', name), tip: t('From this computer, {0}.', name) };
  return { short: name, tip: t('From the computer {0}: its assistant runs there, so its terminal is not offered here.', name) };
}

/** What the card panel says in place of "Go to terminal" for a card asked on another computer. */
export function elsewhereNote(name: string): string {
  return t('Runs on {0}, not on this computer: its terminal is there.', name);
}
