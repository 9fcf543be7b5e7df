// The Answers view in the workbench (Playwright under code-server), in the default settings: a
// sandbox with done cards over 30 days (helpers/answers-view.ts), the first page shown with who
// answered what, from where, when and how long it waited; a card answered here appearing live at
// the top; a hostile card's words kept inert; the search and its one-press clear; Load more, and a
// refused page told in the view. A search reading on and the search's pick: answers-search.test.ts;
// the export: answers-export.test.ts (each file a world of its own: helpers/answers-view.ts). Screenshots in Light Modern and Dark
// Modern: artifacts/answers-*.png. (Each stop is pressed while a read is held, not raced.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ANSWERS_PAGE } from '../../src/sync/answers-model';
import { newCard, until } from './cards-helpers';
import { keyboardInBox } from './helpers/quick-pick';
import { driver } from './helpers/driver';
import { theme } from './helpers/theme';
import { testEnv } from './helpers/env';
import { answersRow, answersWorld, PANE, SEEDED } from './helpers/answers-view';

describe('answers view: who answered what, from where (Playwright)', function () {
  this.timeout(300_000);
  const world = answersWorld();
  const w = world.w;
  const { app, core, answers, listReadsHeld, firstPageAgain } = world;
  const row = answersRow;
  const item = (id: string) => answers().getTreeItem({ kind: 'row', id } as never);
  const description = (id: string) => String(item(id).description ?? '');

  it('the container opened on the Cards view: the Answers view stays collapsed and reads nothing until it is opened', async () => {
    // A new window shows it collapsed: the manifest says so.
    const manifest = JSON.parse(fs.readFileSync(path.join(testEnv.root, 'package.json'), 'utf8')) as { contributes: { views: Record<string, { id: string; visibility?: string }[]> } };
    assert.equal(Object.values(manifest.contributes.views).flat().find((v) => v.id === 'assistantCards.answers')?.visibility, 'collapsed');
    await vscode.commands.executeCommand('assistantCards.cards.focus');
    await until('the cards read', () => app().live?.tree.getChildren().length, 30_000);
    await driver.waitFor({ selector: `${PANE} .pane-header[aria-expanded="false"]`, timeout: 30_000 });
    assert.equal(answers().view.visible, false);
    assert.equal(core().answers.started(), false, 'no Answers read behind a collapsed view');
    const received = (await w().sb.control<{ received: { method: string; url: string }[] }>('GET', '/_sandbox/received')).received;
    assert.deepEqual(received.filter((r) => /[?&]limit=3(&|$)/.test(r.url)).map((r) => r.url), [], 'no Answers list read');
  });

  it(`the first page of ${SEEDED} done cards shows when the view opens: what, who from which app and computer, when, waited`, async () => {
    await theme('Default Light Modern');
    await vscode.commands.executeCommand('assistantCards.answers.focus');
    await until('the first page', () => core().answers.visible().length >= ANSWERS_PAGE && !core().answers.loading(), 60_000);
    const rows = core().answers.visible();
    assert.equal(rows.length, ANSWERS_PAGE, 'one page, more on demand');
    assert.ok(core().answers.hasMore());
    await driver.waitFor(row('(#1)'));
    await answers().view.reveal(answers().moreNode, { focus: false, select: false });
    await driver.waitFor(row('Load more'));
    const byComputer = rows.find((r) => r.who.kind === 'person' && r.who.machine && r.outcome === 'answered')!;
    const d = description(byComputer.id);
    assert.match(d, /You, Assistant Cards on (host-test computer|desktop|build-box)/, d);
    assert.match(d, /Postgres|SQLite|Run it now|Tonight|Mocha|Vitest|Deploy|Wait for review/, 'the option\'s words, not its id');
    assert.match(d, /waited \d/);
    assert.ok(world.seeded().computers.length === 3);
    const phone = rows.find((r) => r.who.kind === 'person' && !r.who.machine)!;
    assert.match(description(phone.id), /no computer: phone or web/);
    const helper = rows.find((r) => r.who.kind === 'helper')!;
    assert.match(description(helper.id), /Helper (reviewer|tester)/);
    const hook = rows.find((r) => r.outcome === 'resolved')!;
    assert.match(description(hook.id), /resolved · The webhook/);
    assert.match(String(answers().view.description), /24 in 30 days\+/);
    await driver.screenshot('answers-light-first-page', { selector: PANE });
    await theme('Default Dark Modern');
    await driver.screenshot('answers-dark-first-page', { selector: PANE });
    // A row opens its card.
    await answers().view.reveal(answers().getChildren()[0]!, { focus: false, select: false });
    await driver.click(row(rows[0]!.title));
    await until('its panel', () => app().panels.get(rows[0]!.id)?.isReady(), 30_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a card answered here shows at the top at once, in its option\'s words, from this app and computer; hostile words stay inert', async () => {
    const c = await newCard(w(), { kind: 'choice', title: 'Pick a cache $(zap) [run](command:workbench.action.quit)', options: [{ id: 'r', label: 'Redis $(flame)' }, { id: 'm', label: 'Memcached' }] });
    await until('the card in the model', () => core().cards.get(c.id));
    const shown = await core().cards.whole(c.id);
    const out = await core().act(core().gestures.fromUiEvent('test:answers'), shown, { type: 'answer', answer: { choiceIds: ['r'] } });
    assert.ok(out.ok, JSON.stringify(out));
    await until('its row, answered', () => core().answers.get(c.id)?.answer !== undefined, 30_000);
    assert.equal(core().answers.visible()[0]!.id, c.id, 'newest first');
    const it = item(c.id);
    assert.equal(it.label, 'Pick a cache $ (zap) [run] (command:workbench.action.quit)', 'plain text: no icon, no link');
    assert.match(String(it.description), /^Redis \$ \(flame\) · You, Assistant Cards for VS Code on host-test computer · /);
    await answers().view.reveal(answers().getChildren()[0]!, { focus: false, select: false });
    await driver.waitFor(row('Pick a cache'));
    await driver.screenshot('answers-dark-live-row', { selector: PANE });
    // The row's whole words are in its tooltip (the sidebar cuts the description).
    const tip = it.tooltip instanceof vscode.MarkdownString ? it.tooltip.value : String(it.tooltip ?? '');
    assert.match(tip, /Who: You, Assistant Cards for VS Code on host-test computer/, tip);
  });

  it('a card put off before a Refresh is still a row after it: read from the Later list, who and when told', async () => {
    const c = await newCard(w(), { kind: 'choice', title: 'Put off for the Answers view', options: [{ id: 'x', label: 'X' }] });
    await until('the card in the model', () => core().cards.get(c.id));
    const out = await core().act(core().gestures.fromUiEvent('test:answers-later'), await core().cards.whole(c.id), { type: 'later', until: '1h' });
    assert.ok(out.ok, JSON.stringify(out));
    await until('its row (live)', () => core().answers.get(c.id)?.outcome === 'put-off', 30_000);
    await vscode.commands.executeCommand('assistantCards.refresh');
    await until('read again', () => core().answers.started() && !core().answers.loading() && core().answers.all().length >= ANSWERS_PAGE, 60_000);
    const r = core().answers.get(c.id);
    assert.equal(r?.outcome, 'put-off', 'from the snoozed list');
    assert.equal(core().answers.visible()[0]?.id, c.id, 'newest first');
    assert.match(description(c.id), /^put off · You, Assistant Cards for VS Code on host-test computer · /);
  });

  it('search by words, then one press on the title button clears it', async () => {
    // The rows read so far are searched; its reading on is held (Load more below needs a page left).
    await listReadsHeld(() => searchAndClear());
  });

  async function searchAndClear(): Promise<void> {
    void vscode.commands.executeCommand('assistantCards.searchAnswers');
    await keyboardInBox('the search\'s words box');
    await driver.type('postgres');
    await driver.press('Enter');
    await driver.waitFor({ selector: '.quick-input-widget:has-text("Search answers (2/2)")' });
    await driver.press('Enter');
    await until('searched', () => core().answers.getSearch().words === 'postgres');
    const shown = core().answers.visible();
    assert.ok(shown.length > 0 && shown.every((r) => r.answer?.choices.some((x) => x.label === 'Postgres')));
    assert.match(String(answers().view.description), /of \d+ · words "postgres"/);
    await driver.screenshot('answers-dark-searched', { selector: PANE });
    await driver.hover({ selector: `${PANE} .pane-header` });
    await driver.click({ selector: `${PANE} .pane-header .action-label[aria-label="Clear Answer Search"]`, force: true });
    await until('cleared', () => Object.keys(core().answers.getSearch()).length === 0);
    assert.doesNotMatch(String(answers().view.description), /words/);
  }

  it('Load more adds a page; a page the service refuses is told in the view, and Load more asks again', async () => {
    await firstPageAgain();
    const before = core().answers.all().length;
    await answers().view.reveal(answers().moreNode, { focus: false, select: false });
    await driver.click(row('Load more'));
    await until('a second page', () => core().answers.all().length >= before + ANSWERS_PAGE && !core().answers.loading(), 60_000);
    await w().sb.control('POST', '/_sandbox/faults', { path: '/v1/cards', method: 'GET', status: 403, times: 1 });
    await vscode.commands.executeCommand('assistantCards.loadMoreAnswers');
    await until('the refusal kept', () => core().answers.problems().length === 1);
    // The refusal stands above the rows: scroll back up to it.
    await answers().view.reveal(answers().getChildren()[0]!, { focus: false, select: false });
    await driver.waitFor(row('The service refused part of the answers'));
    await driver.screenshot('answers-dark-refused', { selector: PANE });
    await theme('Default Light Modern');
    await driver.screenshot('answers-light-refused', { selector: PANE });
    const had = core().answers.all().length;
    await vscode.commands.executeCommand('assistantCards.loadMoreAnswers');
    await until('read again', () => core().answers.problems().length === 0 && core().answers.all().length > had, 60_000);
  });
});
