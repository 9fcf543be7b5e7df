// What the host tier on the oldest VS Code (1.93, `npm test`'s host-min) runs, and why. It runs
// what touches an API or a part of the workbench that differs between 1.93 and today: views and
// trees (rows, badges, tooltips, welcome views), webviews (the panel's frame, focus, keys, state,
// serializer), quick input, notifications, terminals and shell integration, authentication (the
// Accounts menu), URI handling, workspace trust, l10n, the extension host's Node 20. What is the
// same code on both, our client core's requests behind the panel, our notifier's choices and
// timers, the panel's own markup and script, the bridge's hooks, runs once, on the current VS Code
// (and in the unit tier). One test per part of the workbench is enough there: a second test that
// walks the same part with other data of ours proves nothing more about 1.93 (#36: the tier ran
// 140 tests in ~1,000 s of a 2-core run's ~1,200 s; each file's sign-in costs ~5 s besides its
// tests). docs/decisions.md, "#26" and "#36".
//
// Every file of test/editor runs on 1.93 unless it is named below. Kept whole, each for what
// differs there: accessibility-info (tree items' and the status bar's accessibility labels),
// activation (activation events, views, welcome views, commands), answers, answers-search and
// answers-export (a second tree view, its input box and the save dialog, code-server's own on
// 1.93), assistants (terminals, shell integration), every-computer (signing in again
// through the authentication provider with more scopes; a tree row's hover), harness (the runner's
// promises: on 1.93 the environment comes through code-server's own), keybindings (this VS Code's
// own default keys), hardening (markdown in notifications, keys reaching a webview as it gets focus,
// a terminal's sendText), panel-answers (Esc and an input method in a webview), terminal-match (a
// terminal's tty from its shell), views-rebuild (a TreeView made again: blank on 1.93 once),
// desk-next (a card link through VS Code's URI handler; run alone there, its card link test did
// not see its notification under the centre's earlier ones in the first full run, so the file
// stays whole), identity-file, and the Restricted Mode (the VSIX installed) and pseudo-locale
// windows. Of the others, only the tests named in PARTLY_ON_OLDEST run there. What stays on 1.93,
// by part of the workbench: trees (cards, activation, views-rebuild, answers, accessibility-info),
// webviews (ui-cards, cards' state and draft, panel-a11y, panel-answers, hardening), quick input
// (ui-cards, hand-over, answers-search, answers-export's Back), window
// focus (notify), notifications (notify, notify-look-alike's whole table, hardening), terminals (assistants, terminal-match,
// real-claude, panel-paths), auth (ui-cards' and restricted's sign-in through the workbench,
// cards, every-computer), URIs (desk-next), trust (restricted), l10n (pseudo).

/** Files left out whole on the oldest VS Code, with the reason. */
export const LEFT_OUT_ON_OLDEST: Readonly<Record<string, string>> = {
  'press-paths.test.js':
    'the same press from the panel, a notification and quick picks leaving one model is our client core\'s path; on 1.93 ui-cards answers from the panel and through quick picks, and notify from a notification',
  'palette-as-panel.test.js':
    'the palette\'s words as the panel\'s are ours; quick picks one after another run on 1.93 in hand-over (an agent, then how) and ui-cards, and an input box with Back in answers-export',
  'notify-told.test.js':
    'what is told when a notification ends is our notifier\'s choice, and its end is the promise of showInformationMessage (the same since long before 1.93); notify runs notifications and their buttons there',
  'panel-live.test.js':
    'which words the panel\'s one live region says is our own script; the panel in the 1.93 frame runs in panel-a11y (axe over every kind) and ui-cards',
  'after-an-hour.test.js':
    'an hour\'s walk through what other files run on 1.93 one by one: the sign-in through the workbench (ui-cards, restricted), the tree and the panel (ui-cards), a row\'s tooltip (every-computer); its pictures are taken on the current VS Code',
  'two-windows.test.js':
    'which of two windows notifies is our presence code over focus events (notify moves the window\'s focus on 1.93 in every test); not checked on 1.93: a panel brought back by the workbench after a real reload (cards calls our serializer itself), left out for its ~60 s (#36)',
  'proxy.test.js':
    'the proxy path is our own HTTP client (undici) reading the http.proxy setting through the configuration API, unchanged since long before 1.93; test/api/http.test.ts covers it in the unit tier',
  'sign-in-slots.test.js':
    'SecretStorage (1.53) and settings writes, the same API on both; the sign-in itself runs on 1.93 in cards, ui-cards and restricted.untrusted',
  'hostile-panel.test.js':
    'our panel\'s rendering of hostile text and its own CSP (the browser enforces it, not VS Code); the webview\'s frame on 1.93 runs in ui-cards and panel-a11y, and panel-answers and hardening send it keys',
  'start-sandbox.test.js':
    'identity files written by our code and settings written through the configuration API, the same on both (as sign-in-slots)',
  'dead-sandbox.test.js':
    'our transport asking whether the sandbox\'s process lives, and settings read through the configuration API, the same on both (as start-sandbox)',
  'cli-cards.test.js':
    'each CLI\'s card is the same workbench path (a terminal, the tree, the panel, a notification) as real-claude\'s on 1.93; what differs per CLI is its hook\'s event and output, the same on every editor (the unit tier and test/kit/cli-permission-events.test.ts); the connected CLIs\' rows are rows of a tree the assistants test runs there (run once by hand on 1.93.1 with this entry taken out: 6 passed, #54 clihost)',
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
    runs: /signs in with the device code|shows a new card in the tree|undo with the keyboard|works without the mouse|not set up:/,
    why: 'the sign-in through the workbench (welcome view, the code, the approval page in a second tab), a card in the tree, opened in the panel and answered with the countdown, keys in the webview, quick picks, the welcome view run here; Later and Back, a hand-over, the filter, high stakes, a version conflict, offline and a hostile card are our panel\'s forms and the client core\'s requests with other data',
  },
  'notify.test.js': {
    runs: /a blocking choice|answered from its notification, then undone|says which terminal asks|look-alike host/,
    why: 'a notification with its buttons, one click answering, Undo from the next one and Show Terminal run here, and a look-alike word\'s marks in a real notification (#52 asks for both versions); which labels are offered (cut, look-alike, hidden characters, more than three), how many notifications show, `off`, offline, the end of Later and a helper\'s return are our notifier\'s choices over the client core\'s model, the same code on both',
  },
  'real-claude.test.js': {
    runs: /whole command in tree, panel and notification/,
    why: 'a real CLI in a terminal of this window, its card in the tree, the panel and the notification, Show Terminal and the panel\'s Approve run here; the hook\'s wait running out, a note, the question tool, Later and a helper are the bridge\'s hooks, the service and the panel\'s own forms, the same on every editor',
  },
  'panel-a11y.test.js': {
    runs: /\((hc-dark|light-plus)\)/,
    why: 'the 1.93 workbench\'s theme variables in the panel run here in Light+ (no input border there, the hardest case for the fields\' edges) and High Contrast; the other themes are the same variables and our own stylesheet',
  },
  'hand-over.test.js': {
    runs: /palette hand-over/,
    why: 'quick picks one after another (an agent, then how) run here; the panel\'s hand-over form, proposals, failure steps and scopes are our panel\'s forms and the same picks with other data of ours',
  },
  'cards.test.js': {
    runs: /signs in with the device flow|fills the tree|updates the one tree item|commands act on the tree|handed to the serializer|keeps a draft|Accounts menu/,
    why: 'the tree, its badge and selection, the status bar, the webview\'s state and serializer and the Accounts menu run here; answering, undo, Write, Later, hand-over, high stakes, version conflicts, Got it, offline and filters are the client core\'s requests behind the panel (ui-cards answers and undoes through the 1.93 workbench; the rest runs on the current VS Code)',
  },
  'panel-paths.test.js': {
    runs: /workspace scope.*(printed in a real terminal|a notice \(no assistant\))/,
    why: 'Ctrl+click on a terminal link and a link opened from the panel (1.93 asks before opening an address) run here, in the default scope (the machine scope changes which of our cards match, not the workbench); the other paths are the panel\'s own forms and the core\'s requests',
  },
};

/** The top-level alternatives of a pattern: `a|b(c|d)` gives `a` and `b(c|d)`. */
export function alternativesOf(pattern: RegExp): RegExp[] {
  const parts: string[] = [];
  let depth = 0, inClass = false, start = 0;
  const src = pattern.source;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') { i++; continue; }
    if (inClass) { if (c === ']') inClass = false; continue; }
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) { parts.push(src.slice(start, i)); start = i + 1; }
  }
  parts.push(src.slice(start));
  return parts.map((p) => new RegExp(p, pattern.flags));
}

/**
 * Each alternative of a file's `runs` that matches none of that file's test titles, as words to
 * print: a test renamed would otherwise drop out of the 1.93 tier without a word. `titles` holds
 * the full titles of the loaded tests by file name; files not loaded are not judged.
 */
export function unmatchedOnOldest(titles: ReadonlyMap<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const [file, { runs }] of Object.entries(PARTLY_ON_OLDEST)) {
    const ofFile = titles.get(file);
    if (!ofFile) continue;
    for (const alt of alternativesOf(runs)) {
      if (!ofFile.some((t) => alt.test(t))) out.push(`oldest-vscode.ts: ${file}'s runs /${alt.source}/ matches none of its ${ofFile.length} tests (renamed?)`);
    }
  }
  return out;
}

/** Whether this window runs the oldest VS Code's tier (host-test.mjs --vscode min). */
export const onOldest = (): boolean => process.env.ASSISTANT_CARDS_TEST_OLDEST === '1';
