// The link that opens a card in the editor: `vscode://assistant-cards.assistant-cards/card?id=req_…`
// (the extension's publisher and name, then VS Code hands the rest to its URI handler). Built by
// the service's card page (the sandbox), read by the editor's handler. Pure, so both test it in Node.
import { isCardId } from './card-facts';

/** `publisher.name` from package.json: the authority VS Code routes a link to this extension by. */
export const EXTENSION_ID = 'assistant-cards.assistant-cards';
export const CARD_LINK_PATH = '/card';

/** The card's link for an editor whose links start with `scheme` (`vscode`, `vscode-insiders`, `cursor`, ...). */
export function cardLink(cardId: string, scheme = 'vscode'): string {
  return `${scheme}://${EXTENSION_ID}${CARD_LINK_PATH}?id=${encodeURIComponent(cardId)}`;
}

/** What a link to this extension asks: a card by a valid id, or something this editor does not open. */
export type CardLinkRead =
  | { kind: 'card'; id: string }
  /** `/card`, but no id, several, or one not shaped like a card id (`req_` and letters, digits, dashes). */
  | { kind: 'bad-id' }
  /** Another path: not a link this extension makes. */
  | { kind: 'unknown' };

/** Reads a link's path and query (as VS Code's `Uri` gives them, query not yet decoded). */
export function readCardLink(path: string, query: string): CardLinkRead {
  if (path.replace(/\/+$/, '') !== CARD_LINK_PATH) return { kind: 'unknown' };
  const ids = new URLSearchParams(query).getAll('id');
  if (ids.length !== 1 || !isCardId(ids[0])) return { kind: 'bad-id' };
  return { kind: 'card', id: ids[0]! };
}
