// Whether a card's words hold hidden characters, and what its panel says then: the card-level
// use of hidden-chars.ts, apart from it so that the character rule needs nothing of the card's
// parts (format.ts and proposal.ts use the rule; this file uses them).
import type { PanelCard } from './panel-card';
import { holdsHidden } from './hidden-chars';
import { holdsLookAlike } from './look-alike-words';
import { t } from './l10n';
import { readProposal, type ProposalCard } from './proposal';

/** The words of a card a press answers over (the panel's card, or the wire's whole card). */
export type WordedCard = ProposalCard & Pick<PanelCard, 'title' | 'summary'>;

/**
 * Whether the words a press answers hold a hidden character: the card's title, summary, options,
 * questions, steps and a helper's proposal. A notification never answers over them; the card's
 * panel says so above its buttons (`hiddenWarning`).
 */
export function hidesCharacters(card: WordedCard): boolean {
  return holdsHidden(...answeredWords(card));
}

/** Every word a press answers over: title, summary, options, questions, steps, a helper's proposal. */
function answeredWords(card: WordedCard): (string | undefined)[] {
  const proposal = card.proposal !== undefined ? readProposal(card) : undefined;
  return [
    card.title, card.summary,
    ...(card.options ?? []).map((o) => o.label),
    ...(card.asks ?? []).flatMap((a) => [a.title, ...(a.options ?? []).map((o) => o.label)]),
    ...(card.steps ?? []).flatMap((x) => [x.title, x.detail]),
    ...(proposal?.lines ?? []),
  ];
}

/**
 * Whether the words a press answers hold a look-alike word (#52): letters of mixed scripts in one
 * word (`gіthub` with a Cyrillic і), or a host name not all of one script. A notification never
 * answers over them, the palette opens the panel, and the panel marks them (`lookAlikeWarning`).
 */
export function showsLookAlikes(card: WordedCard): boolean {
  return holdsLookAlike(...answeredWords(card));
}

/** What the card's panel says above its buttons when the words hold look-alike words; undefined when they hold none. */
export function lookAlikeWarning(card: WordedCard): string | undefined {
  return showsLookAlikes(card)
    ? t('Some words mix letters of different scripts, which can look like other words: the odd letters are shown as [U+… script]. Read them before you answer.')
    : undefined;
}

/** What the card's panel says above its buttons when the words hold hidden characters; undefined when they hold none. */
export function hiddenWarning(card: WordedCard): string | undefined {
  return hidesCharacters(card)
    ? t('These words hold hidden characters, shown as [U+…]. They can hide or reorder what you answer: read the words as shown before you answer.')
    : undefined;
}
