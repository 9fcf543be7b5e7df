// A card row's words that its version fixes, kept per card id and version: a tree builds every
// row again when the minute turns ("2 minutes ago") or a row's surroundings change, and the
// card's untrusted words (made one plain line, hidden characters marked) are the dear part of a
// row. Pure: no `vscode`.
import type { CardListEntry } from '../api/schemas';
import { cardWords, type CardWords } from './card-view';
import { spokenWords, type SpokenWords } from './spoken';

export interface RowWords { look: CardWords; spoken: SpokenWords }

type Whole = Extract<CardListEntry, { summary?: string }>;

/**
 * What the words are made from at one version: the version, whether the entry is the lighter form
 * (no summary), and who asked (a light entry gains it once the model knew the whole card).
 */
function stampOf(card: CardListEntry): string {
  const { assistant, agent } = card as Whole;
  return `${card.version} ${'whole' in card && card.whole === false ? 'light' : 'whole'} ${assistant?.id ?? ''} ${agent?.id ?? ''}`;
}

export class CardRowWords {
  private readonly byId = new Map<string, { stamp: string; words: RowWords }>();

  /** The card's words, made once per version (and form). */
  of(card: CardListEntry): RowWords {
    const stamp = stampOf(card);
    const kept = this.byId.get(card.id);
    if (kept?.stamp === stamp) return kept.words;
    const words = { look: cardWords(card), spoken: spokenWords(card) };
    this.byId.set(card.id, { stamp, words });
    return words;
  }

  /** A card the tree no longer shows. */
  forget(id: string): void {
    this.byId.delete(id);
  }

  get size(): number {
    return this.byId.size;
  }
}
