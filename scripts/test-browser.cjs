// The browsers the tests drive through Playwright start with these flags: the host tiers' headless
// shell (scripts/host-test.mjs), the end-to-end tests' Chromium (test/e2e) and the approval page's
// (test/sandbox/approval.test.ts). CommonJS, so that the .mjs scripts and the TypeScript tests
// (compiled to CommonJS) both import it. No dependency: setup.mjs reads it before `npm ci`.
'use strict';

/** Debian's Chromium (ASSISTANT_CARDS_CHROMIUM overrides it): the end-to-end tests' browser. */
exports.chromiumPath = () => process.env.ASSISTANT_CARDS_CHROMIUM ?? '/usr/bin/chromium';

exports.BROWSER_ARGS = Object.freeze([
  // The flags each launch had before this list: no sandbox, no GPU, nothing fetched from the
  // network that a test does not ask for.
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
  // V8 stops at its baseline compiler: no Maglev or TurboFan compiling beside the page on a core
  // the tests need (#36). On the 2-core guest the panel accessibility file (axe on 40 panels) took
  // 116-125 s of CPU against 134-142 s, the tree and notification files 108 s against
  // 116-124 s; the press paths, the German window and the real Claude Code the same within noise.
  '--js-flags=--max-opt=1',
]);
