// What the palette's "Answer" (assistantCards.answer) may answer over (#37): only words it shows
// whole, as the notification does. A quick pick shows one line of title and one line per row, cut
// by the window's width, so its bounds are short: a card whose words (title, summary, options,
// questions, steps, a helper's proposal) do not fit, or hold a hidden character, opens in its
// panel instead, where every word shows. Pure: no `vscode`.
import type { Card } from '../api/schemas';
import { hidesCharacters, showsLookAlikes } from './hidden-words';
import { markLookAlikes } from './look-alike-words';
import { plainText } from './plain-text';
import { readProposal } from './proposal';
import { t } from './l10n';
import { fitsOneLine, summaryOneLine } from './summary-blocks';

/** The longest a quick pick's title or row shows whole in a narrow window (~600 px). */
export const PALETTE_MAX = 90;

const fits = (text: string | undefined) => !text || plainText(text, Number.MAX_SAFE_INTEGER).length <= PALETTE_MAX;

/** The pick's title: the card's title, then its summary; plain, whole (check `paletteShowsWhole` first). */
export function paletteTitle(card: Pick<Card, 'title' | 'summary'>): string {
  // Look-alike words show their odd letters as marks, as in the panel (#52).
  const title = plainText(markLookAlikes(card.title), Number.MAX_SAFE_INTEGER);
  return card.summary ? t('{0} · {1}', title, plainText(markLookAlikes(summaryOneLine(card.summary)), Number.MAX_SAFE_INTEGER)) : title;
}

/** Whether the palette shows every word a press there answers, whole and with no hidden character. */
export function paletteShowsWhole(card: Card): boolean {
  // A command of several lines, a run of blank lines or a very long line has no one-line form (#52 F4).
  if (hidesCharacters(card) || showsLookAlikes(card) || !fitsOneLine(card.summary) || !fits(paletteTitle(card))) return false;
  const proposal = card.proposal !== undefined ? readProposal(card) : undefined;
  const words = [
    ...(card.options ?? []).map((o) => o.label),
    ...(card.asks ?? []).flatMap((a) => [a.title, ...(a.options ?? []).map((o) => o.label)]),
    ...(card.steps ?? []).flatMap((x) => [x.title, x.detail]),
    proposal?.lines.join(' · '),
  ];
  return words.every(fits);
}
