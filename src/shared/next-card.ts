// Which card comes next, once the card on screen no longer waits on the person: the card panel's
// "Next" step (and its N key) and a notification of several blocking cards offer it. Pure: the
// host hands in the cards as the tree lists them; the webview only shows what this returns.
import type { CardListEntry } from '../api/schemas';
import { waitsOnYou } from './card-facts';
import { plainText } from './plain-text';

/** How long the next card's title may be, shown before it opens (plain, one line). */
export const NEXT_TITLE_MAX = 80;

/** The next card as the panel shows it before opening it: its id, its title (plain), and how many more wait after it. */
export interface NextCard {
  id: string;
  title: string;
  blocking: boolean;
  /** Who asks it, "Claude Code · shop" (plain), when the list says (#54). */
  who?: string;
  /** Cards waiting on the person besides the one on screen and this one. */
  more: number;
}

/**
 * The next card waiting on the person, in the order the tree lists them (the service's stack
 * order: `waiting` is the model's Waiting on you group, scoped and filtered as the tree is): the
 * first blocking one, else the first one. Never a card in `exclude` (the one on screen, or the one
 * a notification shows); never one whose turn is not the person's.
 */
export function nextCard(waiting: readonly CardListEntry[], exclude: readonly string[]): NextCard | undefined {
  const left = waiting.filter((c) => waitsOnYou(c) && !exclude.includes(c.id));
  const next = left.find((c) => c.blocking === true) ?? left[0];
  if (!next) return undefined;
  const { assistant, agent } = next as { assistant?: { name: string }; agent?: { name: string } };
  const who = assistant ? plainText(agent ? `${assistant.name} · ${agent.name}` : assistant.name, 48) : undefined;
  return { id: next.id, title: plainText(next.title, NEXT_TITLE_MAX), blocking: next.blocking === true, ...(who ? { who } : {}), more: left.length - 1 };
}

export const sameNext = (a: NextCard | undefined, b: NextCard | undefined): boolean =>
  a === b || (!!a && !!b && a.id === b.id && a.title === b.title && a.who === b.who && a.blocking === b.blocking && a.more === b.more);
