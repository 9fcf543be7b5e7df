// Export what the Answers view shows (the rows read, as searched) to a file the person picks:
// JSON Lines or CSV, with a header naming the sign-in (the person's name and email from /v1/me,
// never a token), the time range and the search. Message ids go in only when the person says so.
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Me } from '../../api/schemas';
import type { ClientCore } from '../../sync';
import { isSearchEmpty } from '../../sync';
import type { AnswerRow } from '../../sync';
import { namesOf } from './answers-view';
import type { Log } from '../base/log';
import { say } from '../base/say';
import { answersCsv, answersJsonl, searchWords, type ExportHeader } from '../../shared/answer-words';
import { plainText } from '../../shared/plain-text';

type Format = 'jsonl' | 'csv';

/** The file's header: the sign-in by name, the rows' time range, the search, what was not read. */
export function exportHeader(core: Pick<ClientCore, 'answers'>, me: Me | undefined, rows: readonly AnswerRow[], messageIds: boolean, now: number): ExportHeader {
  const times = rows.map((r) => r.at).filter((a): a is string => !!a).sort();
  const search = core.answers.getSearch();
  const names = namesOf(core.answers.all());
  return {
    signedInAs: { ...(me?.user.name ? { name: me.user.name } : {}), ...(me?.user.email ? { email: me.user.email } : {}), userId: me?.user.id ?? '' },
    ...(me ? { app: me.app.name } : {}),
    ...(me?.grant.machine ? { computer: me.grant.machine.name } : {}),
    from: times[0],
    to: times[times.length - 1],
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
async function askExport(count: number): Promise<{ format: Format; include: boolean } | undefined> {
  const steps: { title: string; items: Choice[] }[] = [
    {
      title: vscode.l10n.t('Export the {0} answers shown as', count),
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

export async function exportAnswers(core: Pick<ClientCore, 'answers'>, me: Me | undefined, timeZone: string, log: Log): Promise<void> {
  const rows = core.answers.visible();
  if (!rows.length) {
    void say.info(vscode.l10n.t('Assistant Cards: no answer is shown, so there is nothing to export.'));
    return;
  }
  const asked = await askExport(rows.length);
  if (!asked) return;
  const { format, include } = asked;
  const day = new Date().toISOString().slice(0, 10);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const uri = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(folder, `assistant-cards-answers-${day}.${format}`),
    filters: format === 'csv' ? { [vscode.l10n.t('CSV')]: ['csv'] } : { [vscode.l10n.t('JSON Lines')]: ['jsonl'] },
    saveLabel: vscode.l10n.t('Export'),
    title: vscode.l10n.t('Export answers'),
  });
  if (!uri) return;
  const header = exportHeader(core, me, rows, include, Date.now());
  const text = format === 'csv' ? answersCsv(header, rows, { timeZone }) : answersJsonl(header, rows, { timeZone });
  try {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  } catch (e) {
    log.warn(`answers export failed: ${String(e)}`);
    void say.error(vscode.l10n.t('Assistant Cards: could not write the file ({0}).', plainText((e as Error).message, 200)));
    return;
  }
  log.info(`answers exported: ${rows.length} rows, ${format}, message ids ${include ? 'in' : 'out'}`);
  const open = vscode.l10n.t('Open');
  void say.info(vscode.l10n.t('Assistant Cards: exported {0} answers to {1}.', rows.length, plainText(uri.fsPath, 200)), open)
    .then((x) => { if (x === open) void vscode.window.showTextDocument(uri); });
}
