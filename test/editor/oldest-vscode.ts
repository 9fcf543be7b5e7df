// What the host tier on the oldest VS Code (1.93, `npm test`'s host-min) runs, and why. It runs
// what touches an API or a part of the workbench that differs between 1.93 and today: views and
// trees (rows, badges, tooltips, welcome views), webviews (the panel's frame, focus, keys, state,
// serializer), quick input, notifications, terminals and shell integration, authentication (the
// Accounts menu), URI handling, workspace trust, l10n, the extension host's Node 20. What is the
// same code on both, our client core's requests behind the panel and the panel's own markup, runs
// once, on the current VS Code (and in the unit tier). docs/decisions.md, "#26" and "#36".
//
// Every file of test/editor runs on 1.93 unless it is named below. Kept whole, each for what
// differs there: accessibility-info (tree items' and the status bar's accessibility labels),
// activation (activation events, views, welcome views, commands), answers, answers-search and answers-export (a second tree view,
// its input box and the save dialog, code-server's own on 1.93), assistants (terminals, shell
// integration, window focus), every-computer (signing in again through the authentication
// provider with more scopes; a tree row's hover), hand-over (multi-step quick picks by keyboard,
// Back), hardening (markdown in notifications, keys reaching a webview as it gets focus, a
// terminal's sendText), harness (the runner's promises: on 1.93 the environment comes through
// code-server's own), keybindings (this VS Code's own default keys), notify and notify-told (notifications and
// their buttons, window focus; #38: what arrives while one shows), panel-a11y (two themes there: Light+ and High Contrast),
// panel-answers (Esc and an input method in a webview), panel-live (the webview's document
// and its one live region as the 1.93 frame holds them), palette-as-panel (#38: quick picks with
// separators, an input box between two picks, the panel's words beside them), press-paths (the same press from a
// webview, a notification and quick picks), terminal-match (a terminal's tty from its shell),
// two-windows (a second window, its focus, a reload through the webview serializer), ui-cards
// (the person's whole walk), views-rebuild (a TreeView made again: blank on 1.93 once), desk-next
// (a card link through VS Code's URI handler; run alone there, its card link test did not see its
// notification under the centre's earlier ones in the first full run, so the file stays whole), and
// the Restricted Mode and pseudo-locale windows.

/** Files left out whole on the oldest VS Code, with the reason. */
export const LEFT_OUT_ON_OLDEST: Readonly<Record<string, string>> = {
  'proxy.test.js':
    'the proxy path is our own HTTP client (undici) reading the http.proxy setting through the configuration API, unchanged since long before 1.93; test/api/http.test.ts covers it in the unit tier',
  'sign-in-slots.test.js':
    'SecretStorage (1.53) and settings writes, the same API on both; the sign-in itself runs on 1.93 in cards, ui-cards and restricted.untrusted',
  'hostile-panel.test.js':
    'our panel\'s rendering of hostile text and its own CSP (the browser enforces it, not VS Code); the webview\'s frame on 1.93 shows ui-cards\' hostile card, and panel-answers and hardening send it keys',
  'start-sandbox.test.js':
    'identity files written by our code and settings written through the configuration API, the same on both (as sign-in-slots)',
  'dead-sandbox.test.js':
    'our transport asking whether the sandbox\'s process lives, and settings read through the configuration API, the same on both (as start-sandbox)',
  'real-codex.test.js':
    'what differs from Claude Code is Codex\'s hook contract, the same on every editor (the unit tier drives it too); a real CLI in a terminal of this window, its card in the tree and the panel and the press run on 1.93 in real-claude',
  'terminal-links.test.js':
    'what our link provider finds in a line of text, called directly; Ctrl+click on a link in a real terminal runs on 1.93 in panel-paths',
};

/**
 * Files of which only some tests run on the oldest VS Code: those whose full title matches `runs`.
 * The rest is the same code on both (the reason says which); it runs on the current VS Code.
 */
export const PARTLY_ON_OLDEST: Readonly<Record<string, { runs: RegExp; why: string }>> = {
  'cards.test.js': {
    runs: /signs in with the device flow|fills the tree|updates the one tree item|commands act on the tree|handed to the serializer|keeps a draft|Accounts menu/,
    why: 'the tree, its badge and selection, the status bar, the webview\'s state and serializer and the Accounts menu run here; answering, undo, Write, Later, hand-over, high stakes, version conflicts, Got it, offline and filters are the client core\'s requests behind the panel (ui-cards and press-paths walk them through the 1.93 workbench)',
  },
  'after-an-hour.test.js': {
    runs: /sign-in: the code lives|\(dark\)|two assistants asking the same question/,
    why: 'the sign-in\'s progress notification and welcome, the tree moving with Undo while held and a notice\'s Got it in one theme (the light one repeats them for the pictures), and a tree row\'s tooltip run here; the history is the panel\'s own markup',
  },
  'real-claude.test.js': {
    runs: /whole command in tree, panel and notification|Decline with a note|wait runs out|question tool/,
    why: 'a real CLI in a terminal, its notification, Show Terminal, the panel\'s Approve, Decline with a note, an answer in the terminal and a choice card run here; a prompt answered in the terminal while its card is open and the waiting card are the bridge and the service, the same on both',
  },
  'panel-paths.test.js': {
    runs: /printed in a real terminal|a notice \(no assistant\)/,
    why: 'Ctrl+click on a terminal link and a link opened from the panel (1.93 asks before opening an address) run here, in both scopes; the other paths are the panel\'s own forms and the core\'s requests',
  },
};

/** Whether this window runs the oldest VS Code's tier (host-test.mjs --vscode min). */
export const onOldest = (): boolean => process.env.ASSISTANT_CARDS_TEST_OLDEST === '1';
