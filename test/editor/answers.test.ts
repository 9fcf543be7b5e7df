// The Answers view in the workbench (Playwright under code-server), in the default settings: a
// sandbox with 1,000 done cards over 30 days (three computers, two helpers, a webhook), the first
// page shown with who answered what, from where, when and how long it waited; a card answered
// here appearing live at the top; a hostile card's words kept inert; the search and its one-press
// clear; Load more, and a refused page told in the view; the export to CSV and JSON Lines through
// the save dialog, with the sign-in by name and no message id. Screenshots in Light Modern and
// Dark Modern: artifacts/answers-*.png.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ANSWERS_PAGE } from '../../src/sync/answers-model';
import { newCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { pick, PICK_INPUT, pickRow } from './helpers/quick-pick';
import { driver, driverAvailable } from './helpers/driver';
import { defaultTheme, theme } from './helpers/theme';
import { intoWorkspaceScope } from './helpers/workspace-scope';
import { testEnv } from './helpers/env';

const SIDEBAR = '#workbench\\.parts\\.sidebar';
const PANE = `${SIDEBAR} .pane:has(.pane-header:has-text("Answers"))`;

describe('answers view: who answered what, from where (Playwright)', function () {
  this.timeout(300_000);
  let w: World | undefined;
  let seeded: { computers: { id: string; name: string }[] } | undefined;
  /** The default scope a person gets (workspace): the card's assistant live in this window's terminal. */
  let workspaceScope: vscode.Disposable | undefined;

  before(async function () {
    if (!driverAvailable()) this.skip();
    // The layout a new window has: the Answers view collapsed (an earlier file in this window may
    // have opened it; VS Code keeps a pane's state for the window).
    await collapseAnswers();
    w = await wire();
    seeded = await w.sb.control('POST', '/_sandbox/seed/done', { count: 1000, days: 30, machineId: w.machineId });
    await signInApproved(w);
    workspaceScope = await intoWorkspaceScope(w);
  });
  after(async () => {
    workspaceScope?.dispose();
    await collapseAnswers().catch(() => undefined);
    await defaultTheme();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await unwire(w);
  });

  const app = () => w!.app;
  const core = () => app().live!.core;
  const answers = () => app().live!.answers;
  const row = (text: string) => ({ selector: `${PANE} .monaco-list-row:has-text(${JSON.stringify(text)})`, timeout: 60_000 });
  const item = (id: string) => answers().getTreeItem({ kind: 'row', id } as never);
  const description = (id: string) => String(item(id).description ?? '');

  async function collapseAnswers(): Promise<void> {
    await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
    await driver.waitFor({ selector: `${PANE} .pane-header`, timeout: 30_000 });
    if (await driver.count({ selector: `${PANE} .pane-header[aria-expanded="true"]` })) await driver.click({ selector: `${PANE} .pane-header .title` });
    await driver.waitFor({ selector: `${PANE} .pane-header[aria-expanded="false"]`, timeout: 30_000 });
  }

  it('the container opened on the Cards view: the Answers view stays collapsed and reads nothing until it is opened', async () => {
    // A new window shows it collapsed: the manifest says so.
    const manifest = JSON.parse(fs.readFileSync(path.join(testEnv.root, 'package.json'), 'utf8')) as { contributes: { views: Record<string, { id: string; visibility?: string }[]> } };
    assert.equal(Object.values(manifest.contributes.views).flat().find((v) => v.id === 'assistantCards.answers')?.visibility, 'collapsed');
    await vscode.commands.executeCommand('assistantCards.cards.focus');
    await until('the cards read', () => app().live?.tree.getChildren().length, 30_000);
    await driver.waitFor({ selector: `${PANE} .pane-header[aria-expanded="false"]`, timeout: 30_000 });
    assert.equal(answers().view.visible, false);
    assert.equal(core().answers.started(), false, 'no Answers read behind a collapsed view');
    const received = (await w!.sb.control<{ received: { method: string; url: string }[] }>('GET', '/_sandbox/received')).received;
    assert.deepEqual(received.filter((r) => /[?&]limit=3(&|$)/.test(r.url)).map((r) => r.url), [], 'no Answers list read');
  });

  it('the first page of 1,000 done cards shows when the view opens: what, who from which app and computer, when, waited', async () => {
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
    assert.ok(seeded!.computers.length === 3);
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
    const c = await newCard(w!, { kind: 'choice', title: 'Pick a cache $(zap) [run](command:workbench.action.quit)', options: [{ id: 'r', label: 'Redis $(flame)' }, { id: 'm', label: 'Memcached' }] });
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
    await driver.hover(row('Pick a cache'));
    await driver.waitFor({ selector: '.monaco-hover:has-text("Who: You, Assistant Cards for VS Code on host-test computer")', timeout: 10_000 })
      .then(() => driver.screenshot('answers-dark-live-row-tooltip'), () => undefined);
  });

  it('a card put off before a Refresh is still a row after it: read from the Later list, who and when told', async () => {
    const c = await newCard(w!, { kind: 'choice', title: 'Put off for the Answers view', options: [{ id: 'x', label: 'X' }] });
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
    void vscode.commands.executeCommand('assistantCards.searchAnswers');
    await driver.waitFor({ selector: PICK_INPUT });
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
  });

  it('Load more adds a page; a page the service refuses is told in the view, and Load more asks again', async () => {
    const before = core().answers.all().length;
    await answers().view.reveal(answers().moreNode, { focus: false, select: false });
    await driver.click(row('Load more'));
    await until('a second page', () => core().answers.all().length >= before + ANSWERS_PAGE && !core().answers.loading(), 60_000);
    await w!.sb.control('POST', '/_sandbox/faults', { path: '/v1/cards', method: 'GET', status: 403, times: 1 });
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

  it('a search reads on through the 30 days, saying how far ("searching… N of 30 days read"), and one press on that row stops it', async () => {
    // Card #150 closed about four and a half days ago: beyond the pages read so far.
    core().answers.setSearch({ words: '(#150)' });
    await until('searching', () => core().answers.searchProgress()?.running, 10_000);
    await answers().view.reveal(answers().moreNode, { focus: false, select: false });
    await driver.waitFor(row('searching…'));
    assert.match(String(answers().view.description), /of \d+ · words "\(#150\)" · searching… \d+ of 30 days read/);
    await driver.screenshot('answers-dark-searching', { selector: PANE });
    await until('found', () => core().answers.visible().some((r) => r.title.endsWith('(#150)')), 120_000);
    await driver.screenshot('answers-dark-search-found', { selector: PANE });
    // On past it, then stopped with one press on the progress row.
    core().answers.setSearch({ words: 'no such words anywhere' });
    await until('searching again', () => core().answers.searchProgress()?.running, 10_000);
    await answers().view.reveal(answers().moreNode, { focus: false, select: false });
    await driver.click(row('searching…'));
    await until('stopped', () => core().answers.searchProgress()?.stopped && !core().answers.searchProgress()?.running, 30_000);
    await driver.waitFor(row('Search further back'));
    assert.match(String(answers().view.message), /No answer read so far matches: words "no such words anywhere" \(stopped: \d+ of 30 days read\)/);
    await driver.screenshot('answers-dark-search-stopped', { selector: PANE });
    await vscode.commands.executeCommand('assistantCards.clearAnswerSearch');
    await until('cleared', () => core().answers.searchProgress() === undefined);
  });

  /** Exports through the UI; resolves with the file once it is written whole (`complete`). */
  async function exportVia(format: 'CSV' | 'JSON Lines', ids: 'No' | 'Yes, include message ids', file: string, complete: (text: string) => boolean, opts: { backFrom?: 'CSV' | 'JSON Lines' } = {}): Promise<string> {
    void vscode.commands.executeCommand('assistantCards.exportAnswers');
    if (opts.backFrom) {
      // One pick through both questions: Back on the second asks the first again, in the same box.
      await pick(opts.backFrom, 'answers shown as');
      await driver.waitFor(pickRow(ids, 'Include message ids?'));
      await driver.screenshot('answers-export-step-2');
      await driver.click({ selector: '.quick-input-widget .quick-input-titlebar .codicon-quick-input-back' });
    }
    await pick(format, 'answers shown as');
    await pick(ids, 'Include message ids?');
    // The save dialog (VS Code's own, in the browser): a path box.
    await driver.waitFor({ selector: '.quick-input-widget:has-text("Export answers")', timeout: 60_000 });
    // The dialog fills in its own path first; ours goes in once it has.
    const ext = path.extname(file);
    await until('the dialog\'s own path', async () => (await driver.value({ selector: PICK_INPUT })).endsWith(ext), 20_000);
    await driver.fill({ selector: PICK_INPUT }, file);
    await until('our path in the dialog', async () => (await driver.value({ selector: PICK_INPUT })) === file, 10_000);
    await driver.screenshot(`answers-save-dialog${ext.replace('.', '-')}`);
    await driver.press('Enter');
    return until('the file, whole', () => { const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''; return complete(text) ? text : undefined; }, 30_000);
  }

  it('export to CSV and JSON Lines: the sign-in by name, the range, the search; no token, no message id unless asked', async () => {
    // Alone too (--grep): the view open, its first page read.
    await vscode.commands.executeCommand('assistantCards.answers.focus');
    await until('the first page', () => core().answers.visible().length > 0 && !core().answers.loading(), 60_000);
    // A search, stopped where it got to: the export holds what the view shows, and says the search.
    core().answers.setSearch({ words: 'postgres' });
    core().answers.stopSearching();
    await until('stopped', () => !core().answers.searchProgress()?.running && !core().answers.loading(), 60_000);
    const shown = core().answers.visible().length;
    assert.ok(shown > 0);
    const csvFile = path.join(testEnv.workspace, 'answers-export.csv');
    const csv = await exportVia('CSV', 'No', csvFile, (t) => t.endsWith('\r\n') && t.split('\r\n').filter((l) => l.startsWith('req_')).length === shown);
    const lines = csv.trimEnd().split('\r\n');
    assert.ok(lines.includes('# signedInAs,Sandbox Person <person@sandbox.test>'), lines.slice(0, 12).join('\n'));
    assert.ok(lines.some((l) => /^# from,20\d\d-/.test(l)) && lines.some((l) => /^# to,20\d\d-/.test(l)));
    assert.equal(lines.filter((l) => l.startsWith('req_')).length, shown);
    assert.ok(lines.includes('# filter,"words ""postgres"""') && lines.filter((l) => l.startsWith('req_')).every((l) => /Postgres/.test(l)), lines.slice(0, 14).join('\n'));
    // A message id or a token would stand alone; a random card id may hold "eyJ" inside it.
    assert.deepEqual(csv.split('\r\n').filter((l) => /(^|[^A-Za-z0-9_])(msg_|eyJ)|DPoP|Bearer/.test(l)), [], 'nothing secret');
    const jsonFile = path.join(testEnv.workspace, 'answers-export.jsonl');
    const jsonl = await exportVia('JSON Lines', 'No', jsonFile, (t) => t.endsWith('\n') && t.split('\n').length === shown + 2, { backFrom: 'CSV' });
    const recs = jsonl.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(recs[0]!.export, 'assistant-cards-answers');
    assert.deepEqual((recs[0]!.signedInAs as { name: string }).name, 'Sandbox Person');
    assert.equal(recs.length, shown + 1);
    assert.ok(recs.slice(1).every((r) => r.messageIds === undefined));
    assert.equal(recs[0]!.filter, 'words "postgres"');
    await driver.screenshot('answers-light-exported', { selector: PANE });
    // The files beside the screenshots, to be read by a person.
    fs.mkdirSync(testEnv.artifacts, { recursive: true });
    fs.copyFileSync(csvFile, path.join(testEnv.artifacts, 'answers-export.csv'));
    fs.copyFileSync(jsonFile, path.join(testEnv.artifacts, 'answers-export.jsonl'));
  });
});
