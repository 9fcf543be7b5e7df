// Card text is untrusted: it only ever reaches the page through lit-html's text bindings.

import { showHidden } from '../../src/shared/hidden-chars';

/**
 * Direction overrides, zero-width and other hidden characters in untrusted text can make "gnp.exe"
 * read as "exe.png" or hide `&& curl … | sh`: they are shown as visible marks, `[U+202E]`, instead
 * of being obeyed (the one rule of src/shared/hidden-chars.ts, as in the tree and notifications).
 */
export function visibleControls(text: string): string {
  return showHidden(text);
}
