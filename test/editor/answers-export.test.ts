// The Answers view's export in the workbench (Playwright under code-server), in the default
// settings, on the world of helpers/answers-view.ts: the export of the whole 30 days to CSV (a plain table, what it holds in a file beside it) and JSON
// Lines through a save dialog that starts outside the workspace, read on with its progress, one
// press stopping it; the sign-in by name and no message id. The CSV export and its timing:
// artifacts/answers-export*. (The export of 1,000 answers is timed in the bench,
// `answersExport1000Ms`: here the rows' number only sets how long the reads take, and each stop is
// pressed while a read is held, not raced.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ANSWERS_PAGE } from '../../src/sync/answers-model';
import { until } from './cards-helpers';
import { pick, PICK_INPUT, pickRow } from './helpers/quick-pick';
import { notificationButton, notificationItem, notificationListed } from './helpers/notifications';
import { driver } from './helpers/driver';
import { testEnv } from './helpers/env';
import { onOldest } from './oldest-vscode';
import { answersWorld, exportVia, PANE, SEEDED, throughSaveDialog } from './helpers/answers-view';

describe('answers export: the whole 30 days (Playwright)', function () {
  this.timeout(300_000);
  const { core, listReadsHeld, firstPageAgain } = answersWorld();

  it('export: the whole 30 days (read on with its progress, one press stops it); CSV a plain table with what it holds beside it; the dialog starts outside the workspace; no token, no message id unless asked', async function () {
    this.timeout(480_000);
    // The view open, its first page read again (the searches before read on; alone, with --grep, the first read).
    await firstPageAgain();
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'answers-export-'));
    const csvFile = path.join(out, 'answers-export.csv');

    // Every answer of the 30 days, read on from the first page.
    const t0 = Date.now();
    // Whole: the file beside it (written last) read as JSON, and as many rows as it says.
    const aboutOf = (): { rows?: number } | undefined => { try { return JSON.parse(fs.readFileSync(`${csvFile}.about.json`, 'utf8')) as { rows?: number }; } catch { return undefined; } };
    const { text: csv, own } = await exportVia('CSV', 'No', csvFile, (t) => t.endsWith('\r\n') && aboutOf()?.rows === t.trimEnd().split('\r\n').length - 1);
    const ms = Date.now() - t0;
    // The dialog started outside the workspace, at a name of its own.
    const inWorkspace = path.relative(testEnv.workspace, own.replace(/^~(?=\/)/, os.homedir()));
    assert.ok(inWorkspace.startsWith('..') || path.isAbsolute(inWorkspace), `the dialog started in the workspace: ${own}`);
    assert.match(path.basename(own), /^assistant-cards-answers-\d{4}-\d\d-\d\d\.csv$/);
    const all = core().answers.all().length;
    assert.equal(core().answers.hasMore(), false, 'the 30 days read whole');
    assert.ok(all >= SEEDED + 1, `${all} rows`);
    const lines = csv.trimEnd().split('\r\n');
    assert.match(lines[0]!, /^card,asked,outcome,answer,who,whoKind,app,computer,at,atLocal,waitedSeconds,assistant,area,askingComputer,steps$/, 'the header row first');
    assert.deepEqual(lines.filter((l) => l.startsWith('#')), [], 'no comment line');
    assert.equal(lines.filter((l) => l.startsWith('req_')).length, all, 'every answer of the 30 days');
    const about = JSON.parse(fs.readFileSync(`${csvFile}.about.json`, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(about.signedInAs, { name: 'Sandbox Person', email: 'person@sandbox.test', userId: (about.signedInAs as { userId: string }).userId });
    assert.equal(about.table, 'answers-export.csv');
    assert.equal(about.rows, all);
    assert.equal(about.filter, '');
    assert.equal(Date.parse(String(about.to)) - Date.parse(String(about.from)), 30 * 86_400_000, 'the 30 days');
    assert.deepEqual(about.notRead, []);
    // A message id or a token would stand alone; a random card id may hold "eyJ" inside it.
    assert.deepEqual(csv.split('\r\n').filter((l) => /(^|[^A-Za-z0-9_])(msg_|eyJ)|DPoP|Bearer/.test(l)), [], 'nothing secret');
    fs.mkdirSync(testEnv.artifacts, { recursive: true });
    fs.copyFileSync(csvFile, path.join(testEnv.artifacts, `answers-export${onOldest() ? '-1.93' : ''}.csv`));
    fs.copyFileSync(`${csvFile}.about.json`, path.join(testEnv.artifacts, `answers-export${onOldest() ? '-1.93' : ''}.csv.about.json`));
    fs.writeFileSync(path.join(testEnv.artifacts, `answers-export-timing${onOldest() ? '-1.93' : ''}.json`), JSON.stringify({ rows: all, msFromDialogToFile: ms, csvBytes: Buffer.byteLength(csv) }, null, 2));

    // A search: the file holds every answer of the 30 days that matches it, and says the search.
    core().answers.setSearch({ words: 'postgres' });
    await until('searched', () => !core().answers.searchProgress()?.running && !core().answers.loading(), 60_000);
    const shown = core().answers.visible().length;
    assert.ok(shown > 0);
    const jsonFile = path.join(out, 'answers-export.jsonl');
    const { text: jsonl } = await exportVia('JSON Lines', 'No', jsonFile, (t) => t.endsWith('\n') && t.split('\n').length === shown + 2, { backFrom: 'CSV' });
    const recs = jsonl.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(recs[0]!.export, 'assistant-cards-answers');
    assert.deepEqual((recs[0]!.signedInAs as { name: string }).name, 'Sandbox Person');
    assert.equal(recs.length, shown + 1);
    assert.ok(recs.slice(1).every((r) => r.messageIds === undefined));
    assert.ok(recs.slice(1).every((r) => /Postgres/.test(String(r.answer)) || /postgres/i.test(String(r.asked))));
    assert.equal(recs[0]!.filter, 'words "postgres"');
    await driver.screenshot('answers-light-exported', { selector: PANE });
    fs.copyFileSync(jsonFile, path.join(testEnv.artifacts, 'answers-export.jsonl'));
    await vscode.commands.executeCommand('assistantCards.clearAnswerSearch');

    // Read again from the first page: a press on the progress's Cancel stops the reading, and nothing is written.
    await vscode.commands.executeCommand('assistantCards.refresh');
    await until('the first page again', () => core().answers.started() && core().answers.hasMore() && !core().answers.loading() && core().answers.all().length >= ANSWERS_PAGE, 60_000);
    const stoppedFile = path.join(out, 'answers-stopped.csv');
    // The first export's notifications cleared: on 1.93 the centre's header can lie over the
    // button of a list item below others (CI: a click on Cancel landed on Do Not Disturb).
    await vscode.commands.executeCommand('notifications.clearAll');
    // Its reads held: the Cancel below is pressed while it reads, however fast the machine.
    await listReadsHeld(async () => {
      void vscode.commands.executeCommand('assistantCards.exportAnswers');
      await driver.waitFor(pickRow('CSV', 'Export every answer of the last 30 days'));
      await driver.click({ selector: PICK_INPUT });
      await pick('CSV', 'Export every answer of the last 30 days');
      await pick('No', 'Include message ids?');
      await throughSaveDialog(stoppedFile);
      await vscode.commands.executeCommand('notifications.showList');
      await driver.waitFor({ selector: `${notificationItem('exporting answers')}:has-text("of 30 days read")`, timeout: 60_000 });
      await driver.screenshot(`answers-export-progress${onOldest() ? '-1.93' : ''}`);
      await driver.click(notificationButton('exporting answers', 'Cancel'));
      // The centre shuts itself once its last entry (the progress) ends: opened again until the stop is listed.
      await notificationListed('export stopped; nothing was written');
    });
    assert.equal(fs.existsSync(stoppedFile), false, 'nothing written');
    assert.ok(core().answers.hasMore(), 'the reading stopped');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
  });
});
