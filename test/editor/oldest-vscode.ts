// What the host tier on the oldest VS Code (1.93, `npm test`'s host-min) runs, and why. It runs
// what touches an API or a part of the workbench that differs between 1.93 and today: views and
// trees (rows, badges, tooltips, welcome views), webviews (the panel's frame, focus, keys, state,
// serializer), quick input, notifications, terminals and shell integration, authentication (the
// Accounts menu), URI handling, workspace trust, l10n, the extension host's Node 20. What is the
// same code on both, our client core's requests behind the panel, our notifier's choices and
// timers, the panel's own markup and script, the bridge's hooks, runs once, on the current VS Code
// (and in the unit tier). One test per part of the workbench is enough there: a second test that
// walks the same part with other data of ours proves nothing more about 1.93 (#36: the tier ran
// 140 tests in ~1,000 s of a 2-core run's ~1,200 s). docs/decisions.md, "#26" and "#36".
//
// Every file of test/editor runs on 1.93 unless it is named below. Kept whole, each for what
// differs there: accessibility-info (tree items' and the status bar's accessibility labels),
// activation (activation events, views, welcome views, commands), answers, answers-search and
// answers-export (a second tree view, its input box and the save dialog, code-server's own on
// 1.93), assistants (terminals, shell integration, window focus), every-computer (signing in again
// through the authentication provider with more scopes; a tree row's hover), harness (the runner's
// promises: on 1.93 the environment comes through code-server's own), keybindings (this VS Code's
// own default keys), hardening (markdown in notifications, keys reaching a webview as it gets focus,
// a terminal's sendText), panel-answers (Esc and an input method in a webview), terminal-match (a
// terminal's tty from its shell), views-rebuild (a TreeView made again: blank on 1.93 once),
// desk-next (a card link through VS Code's URI handler; run alone there, its card link test did
// not see its notification under the centre's earlier ones in the first full run, so the file
// stays whole), identity-file, and the Restricted Mode and pseudo-locale windows. Of the others,
// only the tests named in PARTLY_ON_OLDEST run there.

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
  'ui-cards.test.js': {
    runs: /signs in with the device code|shows a new card in the tree|undo with the keyboard|Later, then Back|hands over to another assistant|a high-stakes card|works without the mouse|palette's filter offers|not set up:/,
    why: 'the person\'s walk through the 1.93 workbench runs here (sign-in page, tree, panel, keys, quick picks, the welcome view); a version conflict and offline are the client core\'s requests and the status bar\'s words (the same status bar API), and a hostile card is the panel\'s own rendering (as hostile-panel)',
  },
  'notify.test.js': {
    runs: /a blocking choice|answers only over words|hidden bidi control|answered from its notification, then undone|more than three options|several blocking cards|says which terminal asks|`off` shows nothing/,
    why: 'notifications, their buttons, Undo from the next one and Show Terminal run here; which labels look like our own buttons, offline told once, the end of Later and a helper\'s return are our notifier\'s choices over the client core\'s model, the same code on both',
  },
  'notify-told.test.js': {
    runs: /a blocking card that arrives while a notification shows|cards counted in the notification/,
    why: 'a notification dismissed, and what it counted, run here; "ends by itself" is our notifier\'s own 30 s timer, the same on both',
  },
  'two-windows.test.js': {
    runs: /comes back after "Reload Window"/,
    why: 'a second window reloaded through the webview serializer runs here; which of two windows notifies is our presence code over window focus events, unchanged since long before 1.93 (assistants runs window focus there)',
  },
  'real-claude.test.js': {
    runs: /whole command in tree, panel and notification|wait runs out/,
    why: 'a real CLI in a terminal of this window, its card in the tree, the panel and the notification, Show Terminal, the panel\'s Approve, and its own prompt answered by keys in the 1.93 terminal run here; a note, the question tool, Later and a helper are the bridge\'s hooks, the service and the panel\'s own forms, the same on every editor',
  },
  'panel-a11y.test.js': {
    runs: /\(hc-dark\)/,
    why: 'the 1.93 workbench\'s theme variables in the panel run here in High Contrast, the theme that differs most; the other themes are the same variables, our own stylesheet',
  },
  'panel-live.test.js': {
    runs: /exactly one live region/,
    why: 'the webview\'s document and its one live region as the 1.93 frame holds them run here; which words are said after a refusal is the panel\'s own script',
  },
  'press-paths.test.js': {
    runs: /(answer from the (panel|notification|palette)|undo from the notification|later from the palette):/,
    why: 'the same press from a webview, a notification and quick picks (and Undo from a notification, Later\'s preset pick) runs here; the other actions take the same path from the same three places',
  },
  'hand-over.test.js': {
    runs: /palette hand-over|panel hand-over|palette: a failure card's step/,
    why: 'a multi-step quick pick with Back and the panel\'s hand-over form run here; proposals, the panel\'s failure step and scopes are the same picks and forms with other data of ours',
  },
  'palette-as-panel.test.js': {
    runs: /carries a note|Later's presets|names a helper/,
    why: 'quick picks with separators, an input box between two picks and the panel\'s words beside them run here; "You decide" for every kind is the same pick for each kind',
  },
  'cards.test.js': {
    runs: /signs in with the device flow|fills the tree|updates the one tree item|commands act on the tree|handed to the serializer|keeps a draft|Accounts menu/,
    why: 'the tree, its badge and selection, the status bar, the webview\'s state and serializer and the Accounts menu run here; answering, undo, Write, Later, hand-over, high stakes, version conflicts, Got it, offline and filters are the client core\'s requests behind the panel (ui-cards and press-paths walk them through the 1.93 workbench)',
  },
  'after-an-hour.test.js': {
    runs: /sign-in: the code lives|\(dark\)|two assistants asking the same question/,
    why: 'the sign-in\'s progress notification and welcome, the tree moving with Undo while held and a notice\'s Got it in one theme (the light one repeats them for the pictures), and a tree row\'s tooltip run here; the history is the panel\'s own markup',
  },
  'panel-paths.test.js': {
    runs: /printed in a real terminal|a notice \(no assistant\)/,
    why: 'Ctrl+click on a terminal link and a link opened from the panel (1.93 asks before opening an address) run here, in both scopes; the other paths are the panel\'s own forms and the core\'s requests',
  },
};

/** Whether this window runs the oldest VS Code's tier (host-test.mjs --vscode min). */
export const onOldest = (): boolean => process.env.ASSISTANT_CARDS_TEST_OLDEST === '1';
