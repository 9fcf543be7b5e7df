// Export the Answers of the last 30 days, as searched, to a file the person picks: all of them
// (the rest of the 30 days is read first, as a search reads on, with its progress; one press
// stops it and nothing is written). JSON Lines with a first line naming the sign-in (the
// person's name and email from /v1/me, never a token), the range and the search; CSV as a plain
// table, with those in a JSON file beside it (`<name>.csv.about.json`). The save dialog starts
// outside the workspace: the file must not land in a repository by default. Message ids go in
// only when the person says so.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Me } from '../../api/schemas';
import type { ClientCore } from '../../sync';
import { isSearchEmpty } from '../../sync';
import type { AnswerRow } from '../../sync';
import { namesOf } from './answers-view';
import type { Log } from '../base/log';
import { say } from '../base/say';
import { aboutFileName, answersCsv, answersCsvAbout, answersJsonl, searchWords, type ExportHeader } from './answer-words';
import { plainText } from '../../shared/plain-text';

type Format = 'jsonl' | 'csv';

/** The 30 days of the done list, in ms. */
const THIRTY_DAYS_MS = 30 * 86_400_000;

/**
 * The file's header: the sign-in by name, the range (the 30 days up to now once read whole, else
 * the rows' own), the search, what was not read.
 */
export function exportHeader(core: Pick<ClientCore, 'answers'>, me: Me | undefined, rows: readonly AnswerRow[], messageIds: boolean, now: number): ExportHeader {
  const times = rows.map((r) => r.at).filter((a): a is string => !!a).sort();
  const search = core.answers.getSearch();
  const names = namesOf(core.answers.all());
  const whole = !core.answers.hasMore();
  return {
    signedInAs: { ...(me?.user.name ? { name: me.user.name } : {}), ...(me?.user.email ? { email: me.user.email } : {}), userId: me?.user.id ?? '' },
    ...(me ? { app: me.app.name } : {}),
    ...(me?.grant.machine ? { computer: me.grant.machine.name } : {}),
    from: whole ? new Date(now - THIRTY_DAYS_MS).toISOString() : times[0],
    to: whole ? new Date(now).toISOString() : times[times.length - 1],
    filter: isSearchEmpty(search) ? '' : searchWords(search, (dim, id) => names[dim].get(id) ?? id),
    exportedAt: new Date(now).toISOString(),
    rows: rows.length,
    messageIds,
    notRead: [
      ...core.answers.problems().map((p) => `${p.what}${p.id ? ` ${p.id}` : ''}: ${p.code}`), // l10n-ignore: the file's own field words
      // The file's own field words (stable English, like its field names), not words on screen.
      ...(core.answers.hasMore() ? ['older answers of the 30 days not loaded'] : []), // l10n-ignore
    ],
  };
}

/** A row of the export's pick: the answer to its question. */
interface Choice extends vscode.QuickPickItem { answer: { format: Format } | { include: boolean } }

/**
 * The export's two questions (the format, then message ids) in ONE quick pick, Step 1 and 2 of 2,
 * with Back on the second: the box keeps the keyboard from one question to the next. Two
 * showQuickPick calls hid the first, gave the keyboard back to the view, then showed the second;
 * three CI runs found the second question shown without the keyboard, so the keys typed for it
 * went elsewhere. A click elsewhere does not close it either (ignoreFocusOut): Escape does.
 */
async function askExport(search: string): Promise<{ format: Format; include: boolean } | undefined> {
  const steps: { title: string; items: Choice[] }[] = [
    {
      title: search ? vscode.l10n.t('Export the answers of the last 30 days that match {0} as', search) : vscode.l10n.t('Export every answer of the last 30 days as'),
      items: [
        { label: vscode.l10n.t('JSON Lines'), description: '.jsonl', answer: { format: 'jsonl' } }, // l10n-ignore
        { label: vscode.l10n.t('CSV'), description: '.csv', answer: { format: 'csv' } }, // l10n-ignore
      ],
    },
    {
      title: vscode.l10n.t('Include message ids?'),
      items: [
        { label: vscode.l10n.t('No'), description: vscode.l10n.t('message ids stay out of the file'), answer: { include: false } },
        { label: vscode.l10n.t('Yes, include message ids'), description: vscode.l10n.t('the ids of words written on the cards'), answer: { include: true } },
      ],
    },
  ];
  const qp = vscode.window.createQuickPick<Choice>();
  qp.ignoreFocusOut = true;
  qp.totalSteps = steps.length;
  let format: Format | undefined; // the first answer; the second question shows while it is set
  const show = (): void => {
    const step = format === undefined ? 0 : 1;
    qp.step = step + 1;
    qp.title = steps[step]!.title;
    qp.value = '';
    qp.items = steps[step]!.items;
    qp.buttons = step ? [vscode.QuickInputButtons.Back] : [];
  };
  try {
    return await new Promise((resolve) => {
      qp.onDidTriggerButton((b) => { if (b === vscode.QuickInputButtons.Back) { format = undefined; show(); } });
      qp.onDidAccept(() => {
        const answer = (qp.selectedItems[0] ?? qp.activeItems[0])?.answer;
        if (!answer) return;
        if ('format' in answer) { format = answer.format; show(); return; }
        if (format === undefined) return;
        resolve({ format, include: answer.include });
        qp.hide();
      });
      qp.onDidHide(() => resolve(undefined));
      show();
      qp.show();
    });
  } finally {
    qp.dispose();
  }
}

/**
 * Where the save dialog starts: the person's Downloads, Documents or home folder, the first that
 * exists and is not inside an open workspace folder (else the system's temporary folder).
 */
export function exportFolder(home = os.homedir(), workspace: readonly string[] = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath)): string {
  const inside = (p: string) => workspace.some((w) => { const r = path.relative(w, p); return r === '' || (!r.startsWith('..') && !path.isAbsolute(r)); });
  for (const p of [path.join(home, 'Downloads'), path.join(home, 'Documents'), home]) { // l10n-ignore: folder names on disk
    if (p && fs.existsSync(p) && !inside(p)) return p;
  }
  return os.tmpdir();
}

/** Reads the rest of the 30 days with its progress in a notification; its Cancel stops it. False when stopped. */
async function readTheThirtyDays(core: Pick<ClientCore, 'answers'>, log: Log): Promise<boolean> {
  if (core.answers.readProgress().whole && core.answers.started()) return true;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Assistant Cards: exporting answers'), cancellable: true },
    async (progress, token) => {
      const stop = new AbortController();
      const cancel = token.onCancellationRequested(() => stop.abort());
      let told = -1;
      const tell = () => {
        const p = core.answers.readProgress();
        if (p.daysRead === told) return;
        progress.report({ message: vscode.l10n.t('reading the 30 days: {0} of {1} days read', p.daysRead, p.days), increment: ((p.daysRead - Math.max(0, told)) / p.days) * 100 });
        told = p.daysRead;
      };
      const sub = core.answers.changed(tell);
      tell();
      const t0 = Date.now();
      try {
        await core.answers.readAll({ signal: stop.signal });
      } finally {
        sub.dispose();
        cancel.dispose();
      }
      log.info(`answers export: read ${core.answers.all().length} rows of the 30 days in ${Date.now() - t0} ms${stop.signal.aborted ? ' (stopped)' : ''}`);
      return !stop.signal.aborted;
    },
  );
}

export async function exportAnswers(core: Pick<ClientCore, 'answers'>, me: Me | undefined, timeZone: string, log: Log): Promise<void> {
  const search = core.answers.getSearch();
  const names = namesOf(core.answers.all());
  const asked = await askExport(isSearchEmpty(search) ? '' : plainText(searchWords(search, (dim, id) => names[dim].get(id) ?? id), 200));
  if (!asked) return;
  const { format, include } = asked;
  const day = new Date().toISOString().slice(0, 10);
  const uri = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.file(path.join(exportFolder(), `assistant-cards-answers-${day}.${format}`)),
    filters: format === 'csv' ? { [vscode.l10n.t('CSV')]: ['csv'] } : { [vscode.l10n.t('JSON Lines')]: ['jsonl'] },
    saveLabel: vscode.l10n.t('Export'),
    title: vscode.l10n.t('Export answers'),
  });
  if (!uri) return;
  const t0 = Date.now();
  if (!await readTheThirtyDays(core, log)) {
    void say.info(vscode.l10n.t('Assistant Cards: export stopped; nothing was written.'));
    return;
  }
  const rows = core.answers.visible();
  const header = exportHeader(core, me, rows, include, Date.now());
  const about = format === 'csv' ? vscode.Uri.joinPath(uri, '..', aboutFileName(path.basename(uri.path))) : undefined;
  try {
    if (format === 'csv') {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(answersCsv(header, rows, { timeZone })));
      await vscode.workspace.fs.writeFile(about!, new TextEncoder().encode(answersCsvAbout(header, path.basename(uri.path))));
    } else {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(answersJsonl(header, rows, { timeZone })));
    }
  } catch (e) {
    log.warn(`answers export failed: ${String(e)}`);
    void say.error(vscode.l10n.t('Assistant Cards: could not write the file ({0}).', plainText((e as Error).message, 200)));
    return;
  }
  log.info(`answers exported: ${rows.length} rows, ${format}, message ids ${include ? 'in' : 'out'}, ${Date.now() - t0} ms${header.notRead.length ? `, not whole: ${header.notRead.join('; ')}` : ''}`);
  const open = vscode.l10n.t('Open');
  const done = about
    ? vscode.l10n.t('Assistant Cards: exported {0} answers to {1} (who, the range and the search: {2}).', rows.length, plainText(uri.fsPath, 200), plainText(path.basename(about.path), 120))
    : vscode.l10n.t('Assistant Cards: exported {0} answers to {1}.', rows.length, plainText(uri.fsPath, 200));
  const say1 = header.notRead.length ? say.warn : say.info;
  void say1(header.notRead.length ? `${done} ${vscode.l10n.t('Not whole: the service refused part of it (the file says which).')}` : done, open)
    .then((x) => { if (x === open) void vscode.window.showTextDocument(uri); });
}
