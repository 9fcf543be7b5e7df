// The only way this extension shows a notification. Its text often carries words from the
// service (card titles, names, problem details), and VS Code turns `[label](command:…)` in a
// notification into a link that runs the command: the whole text is made inert first. Never
// modal, so a notification never takes the keyboard from what the person is typing; the one
// exception is `confirm`, which the person's own click asked for (opening a link to this computer).
import * as vscode from 'vscode';
import { inert } from '../../shared/plain-text';

export const say = {
  info: <T extends string>(text: string, ...buttons: T[]): Thenable<T | undefined> => vscode.window.showInformationMessage(inert(text), ...buttons),
  warn: <T extends string>(text: string, ...buttons: T[]): Thenable<T | undefined> => vscode.window.showWarningMessage(inert(text), ...buttons),
  error: <T extends string>(text: string, ...buttons: T[]): Thenable<T | undefined> => vscode.window.showErrorMessage(inert(text), ...buttons),
  /** A modal question the person's own action raised; resolves to true only for `button`. */
  confirm: (text: string, detail: string, button: string): Thenable<boolean> =>
    vscode.window.showWarningMessage(inert(text), { modal: true, detail: inert(detail) }, button).then((picked) => picked === button),
  /** Buttons as items (what was picked is told by identity, not by its words). */
  choose: <T extends vscode.MessageItem>(text: string, ...items: T[]): Thenable<T | undefined> => {
    const shown = items.map((i) => ({ ...i, title: inert(i.title) }));
    return vscode.window.showInformationMessage(inert(text), ...shown).then((picked) => (picked ? items[shown.indexOf(picked)] : undefined));
  },
};
