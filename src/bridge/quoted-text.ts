// Text a model wrote, quoted for a card's summary: each of its lines behind the gutter `│ `, so no
// line of it can pass for the card's own words ("Why:", "In:"). The display
// (src/shared/summary-blocks.ts) reads the same gutter and shows each block apart with its line count.

import { BREAKS, GUTTER } from '../api/constants';

/** Text as a quoted block: every line (blank ones too) behind the gutter. */
export function quoted(text: string): string {
  return text.split(BREAKS).map((l) => `${GUTTER}${l}`).join('\n');
}
