// Notifications as the host tests read them: in the notifications centre, which lists every
// notification as its toast does (toasts may not show in the headless workbench, and none does
// while the centre is open).
import * as vscode from 'vscode';
import { driver } from './driver';

/** The centre's entry that mentions `text`. */
export const notificationItem = (text: string) => `.notifications-center .notification-list-item:has-text(${JSON.stringify(text)})`;

/** The button `label` of the centre's entry that mentions `text`. */
export const notificationButton = (text: string, label: string) =>
  ({ selector: `${notificationItem(text)} .monaco-button:text-is(${JSON.stringify(label)})`, timeout: 60_000 });

/** Opens the centre and waits until an entry that mentions `text` is listed. */
export async function notificationListed(text: string): Promise<void> {
  await vscode.commands.executeCommand('notifications.showList');
  await driver.waitFor({ selector: notificationItem(text), timeout: 60_000 });
}

/** The words of the first entry that mentions `text`, once it is listed. */
export async function notificationText(text: string): Promise<string> {
  await notificationListed(text);
  return driver.text({ selector: notificationItem(text) });
}
