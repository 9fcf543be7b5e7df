// Card text is untrusted: it only ever reaches the page through lit-html's text bindings.

/**
 * Direction overrides and isolates in untrusted text can make "gnp.exe" read as "exe.png": they
 * are shown as visible marks instead of being obeyed.
 */
export function visibleControls(text: string): string {
  return text.replace(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g, (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`);
}
