/** Debian's Chromium (ASSISTANT_CARDS_CHROMIUM overrides it): the end-to-end tests' browser. */
export function chromiumPath(): string;
/** The flags every browser the tests start gets (scripts/test-browser.cjs says why). */
export const BROWSER_ARGS: readonly string[];
