// What the host tier on the oldest VS Code (1.93, `npm test`'s host-min) leaves out, and why. It
// runs every file that touches an API or a part of the workbench that differs between 1.93 and
// today (views, webviews, terminals and shell integration, notifications, quick picks, l10n,
// authentication, workspace trust, the extension host's Node). A file is left out only when what
// it tests is the same code on both: written here with the reason (docs/decisions.md, "#26").
export const LEFT_OUT_ON_OLDEST: Readonly<Record<string, string>> = {
  'proxy.test.js':
    'the proxy path is our own HTTP client (undici) reading the http.proxy setting through the configuration API, unchanged since long before 1.93; test/api/http.test.ts covers it in the unit tier',
  'sign-in-slots.test.js':
    'SecretStorage (1.53) and settings writes, the same API on both; the sign-in itself runs on 1.93 in cards, ui-cards and restricted.untrusted',
};

/** Whether this window runs the oldest VS Code's tier (host-test.mjs --vscode min). */
export const onOldest = (): boolean => process.env.ASSISTANT_CARDS_TEST_OLDEST === '1';
