// The colour theme of the window, for the screenshots taken in Light Modern and Dark Modern.
import * as vscode from 'vscode';
import { driver } from './driver';

/** The workbench's class once a theme has been applied (the state to wait for before a picture). */
const WORKBENCH_CLASS = { 'Default Light Modern': 'vs', 'Default Dark Modern': 'vs-dark' } as const;

/** Switches the colour theme and waits until the workbench wears it. */
export async function theme(name: keyof typeof WORKBENCH_CLASS): Promise<void> {
  await vscode.workspace.getConfiguration('workbench').update('colorTheme', name, vscode.ConfigurationTarget.Global);
  await driver.waitFor({ selector: `.monaco-workbench.${WORKBENCH_CLASS[name]}`, state: 'attached' });
}

/** The window's own theme again (no setting). */
export async function defaultTheme(): Promise<void> {
  await vscode.workspace.getConfiguration('workbench').update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
}
