// The look-alike and mixed-script table (test/shared/look-alike-words-table.ts) through real
// notifications (#52): for each row, the row's text goes where an asker puts words, a card's title,
// the command in its summary and an option, and the notification the person sees is read from the
// workbench's notifications centre. A look-alike word shows its odd letters as marks and leaves
// the notification with Open only; words of one script each are shown as they came and answered
// there. One test walks the whole table in this one window, on 1.139 and on 1.93.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { atThisWindow, awayFromThisWindow, newCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driverAvailable } from './helpers/driver';
import { notificationButtons, notificationText } from './helpers/notifications';
import { LOOK_ALIKE_TABLE } from '../shared/look-alike-words-table';
import { TITLE_MAX } from '../../src/shared/notify-rules';

/** What a notification offers beside answers: Show Terminal only when the asker's terminal is here. */
const notAnswers = (buttons: readonly string[]) => buttons.filter((b) => b !== 'Show Terminal');
/**
 * A button's label is held to more than its words are (#37): one label whose letters are Latin and
 * Cyrillic or Greek, even in words of one script each ("Kubernetes-Клиент"), is not a button.
 */
const twoScriptLabel = (label: string) => /\p{Script=Latin}/u.test(label) && /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(label);

describe('look-alike words through real notifications, the whole table (#52, extension host)', function () {
  this.timeout(600_000);
  let w: World;

  before(async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    await signInApproved(w);
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
    await awayFromThisWindow();
  });
  after(async () => {
    await unwire(w);
  });

  /** A fresh start for the next card's notification: the window focused, none showing (one shows at a time). */
  const clear = async () => {
    await atThisWindow();
    await vscode.commands.executeCommand('notifications.clearAll');
    await until('no card notification showing', () => !w.app.live!.notifier.isShowing());
  };

  it('look-alike table: each row in a title, a command and an option: marked and Open only, or shown as it came and answered (#52)', async () => {
    for (const [i, [text, words, marked]] of LOOK_ALIKE_TABLE.entries()) {
      const row = `row ${i + 1} ${JSON.stringify(text)}`;
      const looksAlike = words.length > 0;
      /** The notification's words hold no look-alike word as it came: each odd letter is a mark. */
      const noRawWord = (said: string) => { for (const word of words) assert.ok(!said.includes(word), `${row}: ${JSON.stringify(word)} shown raw in ${JSON.stringify(said)}`); };

      // In the title (the summary names the place, to find the notification by).
      await clear();
      const inTitle = `Look-alike table ${i + 1}, in the title.`;
      await newCard(w, { kind: 'approval', title: text, summary: inTitle, blocking: true });
      let said = await notificationText(inTitle);
      // A title longer than a notification shows whole is cut: its start is still shown, marked.
      assert.ok(said.includes(marked.length <= TITLE_MAX ? marked : marked.slice(0, TITLE_MAX - 20)), `${row}: the title as marked in ${JSON.stringify(said)}`);
      noRawWord(said);
      let buttons = await notificationButtons(inTitle);
      if (looksAlike) assert.deepEqual(notAnswers(buttons), ['Open'], `${row} in the title: Open only`);
      else assert.deepEqual(buttons.slice(0, 2), ['Approve', 'Decline'], `${row} in the title: answered from the notification`);

      // In the command the card gates.
      await clear();
      const inCommand = `Look-alike table ${i + 1}, in the command: run it?`;
      await newCard(w, { kind: 'approval', title: inCommand, summary: `Will run (command):\n\u2502 ${text}`, blocking: true });
      said = await notificationText(inCommand);
      assert.ok(said.includes(marked), `${row}: the command as marked in ${JSON.stringify(said)}`);
      noRawWord(said);
      buttons = await notificationButtons(inCommand);
      if (looksAlike) assert.deepEqual(notAnswers(buttons), ['Open'], `${row} in the command: Open only`);
      else assert.deepEqual(buttons.slice(0, 2), ['Approve', 'Decline'], `${row} in the command: answered from the notification`);

      // In an option: a look-alike label is not a button; one of one script (or Latin with Han and kana) is, as it came.
      await clear();
      const inOption = `Look-alike table ${i + 1}, in an option: which one?`;
      await newCard(w, { kind: 'choice', title: inOption, blocking: true, options: [{ id: 'row', label: text }, { id: 'other', label: 'Something else' }] });
      buttons = await notificationButtons(inOption);
      if (looksAlike) assert.deepEqual(notAnswers(buttons), ['Open'], `${row} in an option: Open only`);
      else if (twoScriptLabel(text)) assert.deepEqual(notAnswers(buttons), ['Open'], `${row} in an option: not marked, but a label of two scripts is no button (#37)`);
      else assert.deepEqual([...notAnswers(buttons)].sort(), [text, 'Something else', 'Open'].sort(), `${row} in an option: its label a button, as it came`);
    }
  });
});
