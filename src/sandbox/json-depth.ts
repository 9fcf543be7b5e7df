// Nesting depth of a JSON text, counted before parsing: a body nested 200,000 deep parses, but
// every later serialisation of it overflows the stack, so it is refused at the door.

/** No wire shape of either spec nests deeper than a handful; 64 leaves room for extra fields. */
export const MAX_JSON_DEPTH = 64;

/** True when the text opens more than `max` arrays/objects inside one another (strings skipped). */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}
