// Card text is untrusted: it only ever reaches the page through lit-html's text bindings.

import { showHidden } from '../../src/shared/hidden-chars';
import { markLookAlikes } from '../../src/shared/look-alike-words';

/**
 * Direction overrides, zero-width and other hidden characters in untrusted text can make "gnp.exe"
 * read as "exe.png" or hide `&& curl … | sh`: they are shown as visible marks, `[U+202E]`, instead
 * of being obeyed (the one rule of src/shared/hidden-chars.ts, as in the tree and notifications).
 */
export function visibleControls(text: string): string {
  return showHidden(text);
}

/**
 * A card's own words (title, summary, options, questions): hidden characters as marks, and the odd
 * letters of a look-alike word (`gіthub.com` with a Cyrillic і) as `[U+0456 Cyrillic]` (#52).
 */
export function cardWords(text: string): string {
  return markLookAlikes(showHidden(text));
}
