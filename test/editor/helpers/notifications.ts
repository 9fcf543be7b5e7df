// Notifications as the host tests read them: in the notifications centre, which lists every
// notification as its toast does (toasts may not show in the headless workbench, and none does
// while the centre is open).
import * as vscode from 'vscode';
import { driver } from './driver';
import { until } from '../../kit/until';

/** The centre's entry that mentions `text`. */
export const notificationItem = (text: string) => `.notifications-center .notification-list-item:has-text(${JSON.stringify(text)})`;

/** The button `label` of the centre's entry that mentions `text`. */
export const notificationButton = (text: string, label: string) =>
  ({ selector: `${notificationItem(text)} .monaco-button:text-is(${JSON.stringify(label)})`, timeout: 60_000 });

/**
 * Opens the centre until an entry that mentions `text` is listed there. Opened once, the centre
 * can be closed again before a late notification comes (a terminal just shown takes the focus;
 * #36 saw the bell count it with the centre shut), so it is opened again each round.
 */
export async function notificationListed(text: string): Promise<void> {
  await until(`the notification "${text}" listed in the centre`, async () => {
    await vscode.commands.executeCommand('notifications.showList');
    return driver.waitFor({ selector: notificationItem(text), timeout: 2_000 }).then(() => true, () => undefined);
  }, 60_000, 250);
}

/** The buttons' words of the notification that mentions `text`, once it is listed. */
export async function notificationButtons(text: string): Promise<string[]> {
  await notificationListed(text);
  return driver.texts({ selector: `${notificationItem(text)} .monaco-button` });
}

/** How many notifications in the centre mention `text` (the centre opened first). */
export async function notificationCount(text: string): Promise<number> {
  await vscode.commands.executeCommand('notifications.showList');
  return driver.count({ selector: notificationItem(text) });
}

/** The words of the first entry that mentions `text`, once it is listed. */
export async function notificationText(text: string): Promise<string> {
  await notificationListed(text);
  return driver.text({ selector: notificationItem(text) });
}
