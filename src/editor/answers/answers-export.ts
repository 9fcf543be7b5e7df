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
      ...core.answers.problems().map((p) => `${p.what}${p.id ? ` ${p.id}` : ''}: ${p.code}`),
      // The file's own field words (stable English, like its field names), not words on screen.
      ...(core.answers.hasMore() ? ['older answers of the 30 days not loaded'] : []), // l10n-ignore
    ],
  };
}

export async function exportAnswers(core: Pick<ClientCore, 'answers'>, me: Me | undefined, timeZone: string, log: Log): Promise<void> {
  const rows = core.answers.visible();
  if (!rows.length) {
    void say.info(vscode.l10n.t('Assistant Cards: no answer is shown, so there is nothing to export.'));
    return;
  }
  const format = await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t('JSON Lines'), description: '.jsonl', format: 'jsonl' as Format }, // l10n-ignore
      { label: vscode.l10n.t('CSV'), description: '.csv', format: 'csv' as Format }, // l10n-ignore
    ],
    { title: vscode.l10n.t('Export the {0} answers shown as', rows.length) },
  );
  if (!format) return;
  const ids = await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t('No'), description: vscode.l10n.t('message ids stay out of the file'), include: false },
      { label: vscode.l10n.t('Yes, include message ids'), description: vscode.l10n.t('the ids of words written on the cards'), include: true },
    ],
    { title: vscode.l10n.t('Include message ids?') },
  );
  if (!ids) return;
  const day = new Date().toISOString().slice(0, 10);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const uri = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(folder, `assistant-cards-answers-${day}.${format.format}`),
    filters: format.format === 'csv' ? { [vscode.l10n.t('CSV')]: ['csv'] } : { [vscode.l10n.t('JSON Lines')]: ['jsonl'] },
    saveLabel: vscode.l10n.t('Export'),
    title: vscode.l10n.t('Export answers'),
  });
  if (!uri) return;
  const header = exportHeader(core, me, rows, ids.include, Date.now());
  const text = format.format === 'csv' ? answersCsv(header, rows, { timeZone }) : answersJsonl(header, rows, { timeZone });
  try {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  } catch (e) {
    log.warn(`answers export failed: ${String(e)}`);
    void say.error(vscode.l10n.t('Assistant Cards: could not write the file ({0}).', plainText((e as Error).message, 200)));
    return;
  }
  log.info(`answers exported: ${rows.length} rows, ${format.format}, message ids ${ids.include ? 'in' : 'out'}`);
  const open = vscode.l10n.t('Open');
  void say.info(vscode.l10n.t('Assistant Cards: exported {0} answers to {1}.', rows.length, plainText(uri.fsPath, 200)), open)
    .then((x) => { if (x === open) void vscode.window.showTextDocument(uri); });
}
