// The Answers view's search reading on in the workbench (Playwright under code-server), in the
// default settings, on the world of helpers/answers-view.ts: a search reading on through the 30
// days, saying how far, one press stopping it; the search's pick offering every value of the 30
// days (read on as the pick shows) with the app, and words matching names. Screenshots:
// artifacts/answers-*.png. (Each stop is pressed while a read is held, not raced.)
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { until } from './cards-helpers';
import { keyboardInBox, PICK_INPUT, pickRow, typeInPick } from './helpers/quick-pick';
import { driver } from './helpers/driver';
import { onOldest } from './oldest-vscode';
import { answersRow, answersWorld, PANE } from './helpers/answers-view';

describe('answers search: read on through the 30 days (Playwright)', function () {
  this.timeout(300_000);
  const { core, answers, listReadsHeld, firstPageAgain } = answersWorld();
  const row = answersRow;

  /**
   * From the first page, a search for `words` reading on with every list read held (a press finds
   * it reading, however fast the machine), its progress row in view; then `step`, still held.
   */
  async function searchingHeld(words: string, step: () => Promise<void>): Promise<void> {
    await firstPageAgain();
    await listReadsHeld(async () => {
      core().answers.setSearch({ words });
      await until(`searching for ${words}`, () => core().answers.searchProgress()?.running, 10_000);
      await answers().view.reveal(answers().moreNode, { focus: false, select: false });
      await step();
    });
  }

  it('a search reads on through the 30 days, saying how far ("searching… N of 30 days read"), and one press on that row stops it', async () => {
    // Card #30 closed about 11 days ago: beyond the first page. Its reads held while the
    // progress is looked at.
    await searchingHeld('(#30)', async () => {
      await driver.waitFor(row('searching…'));
      assert.match(String(answers().view.description), /of \d+ · words "\(#30\)" · searching… \d+ of 30 days read/);
      await driver.screenshot('answers-dark-searching', { selector: PANE });
    });
    await until('found', () => core().answers.visible().some((r) => r.title.endsWith('(#30)')), 120_000);
    await driver.screenshot('answers-dark-search-found', { selector: PANE });
    // From the first page again, then stopped with one press on the progress row (its reads held).
    await vscode.commands.executeCommand('assistantCards.clearAnswerSearch');
    await searchingHeld('no such words anywhere', async () => {
      await driver.click(row('searching…'));
      await until('stopped', () => core().answers.searchProgress()?.stopped && !core().answers.searchProgress()?.running, 30_000);
    });
    await driver.waitFor(row('Search further back'));
    assert.match(String(answers().view.message), /No answer read so far matches: words "no such words anywhere" \(stopped: \d+ of 30 days read\)/);
    await driver.screenshot('answers-dark-search-stopped', { selector: PANE });
    await vscode.commands.executeCommand('assistantCards.clearAnswerSearch');
    await until('cleared', () => core().answers.searchProgress() === undefined);
  });

  it('the search\'s pick offers every value of the 30 days (an area only a card 15 days back has), read on as it shows; the app too; words match names', async () => {
    // Read again from the first page (the searches before read on).
    await firstPageAgain();
    const archived = () => core().answers.all().find((r) => r.area?.id === 'prj_seed-archive');
    assert.equal(archived(), undefined, 'not read yet: the rows read so far do not reach 15 days back');
    void vscode.commands.executeCommand('assistantCards.searchAnswers');
    await driver.waitFor({ selector: '.quick-input-widget:has-text("Search answers (1/2)")' });
    await keyboardInBox('the search\'s words box');
    await driver.press('Enter');
    const title = 'Search answers (2/2)';
    await driver.waitFor(pickRow('Assistant Cards for phone', title));
    await driver.waitFor(pickRow('claude-code', title));
    await driver.screenshot(`answers-search-pick-reading${onOldest() ? '-1.93' : ''}`);
    // Read on while the pick shows: the area of the card 15 days back comes in.
    await driver.waitFor({ ...pickRow('Archive', title), timeout: 180_000 });
    await driver.screenshot(`answers-search-pick-every-value${onOldest() ? '-1.93' : ''}`);
    await typeInPick('Archive', 'Archive', title);
    await driver.click(pickRow('Archive', title));
    await driver.waitFor({ selector: `.quick-input-list .monaco-list-row[aria-checked="true"]:has-text("Archive")`, timeout: 30_000 });
    await driver.press('Enter', { selector: PICK_INPUT });
    await until('searched by the area', () => core().answers.getSearch().areas?.includes('prj_seed-archive'));
    await until('its row', () => core().answers.visible().some((r) => r.area?.id === 'prj_seed-archive'), 60_000);
    assert.ok(core().answers.visible().every((r) => r.area?.id === 'prj_seed-archive'));
    // Words match the area's, assistant's and computer's names, not only the question and answer.
    core().answers.setSearch({ words: 'archive' });
    assert.deepEqual(core().answers.visible().map((r) => r.id), [archived()!.id]);
    core().answers.setSearch({ words: 'build-box' });
    assert.ok(core().answers.visible().length > 0 && core().answers.visible().every((r) => r.who.kind === 'person' && r.who.machine?.name === 'build-box'));
    // The app: the one the answer came from.
    core().answers.setSearch({ apps: ['app_seed-phone'] });
    assert.ok(core().answers.visible().length > 0 && core().answers.visible().every((r) => r.who.kind === 'person' && r.who.appId === 'app_seed-phone'));
    await vscode.commands.executeCommand('assistantCards.clearAnswerSearch');
    await until('cleared', () => core().answers.searchProgress() === undefined);
  });
});
