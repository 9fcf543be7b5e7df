// Which CLI the Connect or Disconnect command acts on (#53/#54): the one its argument names (the
// CLI's id from a test or a keybinding's `args`, or a row of the Assistants view), else the one
// the person picks from the adapters (Connect: those not connected; Disconnect: those connected),
// each shown by its name and the file Connect writes or Disconnect edits.
import * as vscode from 'vscode';
import { say } from '../base/say';
import { plainText } from '../../shared/plain-text';

export type CliVerb = 'connect' | 'disconnect';

/** A CLI the pick may offer: our adapter's id and name, its settings file, and whether it is connected now. */
export interface CliChoice { id: string; name: string; file: string; connected: boolean }

/** What the command's argument names: a CLI (`id`), nothing (`pick`), or something no adapter knows. */
export type CliTarget = { id: string } | { pick: true } | { unknown: string };

/** The CLI an argument names: an id, or an Assistants view row (`{kind: 'cli', cli}`); `isCli` says which ids are ours. */
export function cliTargetOf(arg: unknown, isCli: (id: unknown) => boolean): CliTarget {
  if (arg === undefined || arg === null) return { pick: true };
  const id = typeof arg === 'object' && (arg as { kind?: unknown }).kind === 'cli' ? (arg as { cli?: unknown }).cli : arg;
  if (isCli(id)) return { id: id as string };
  return { unknown: typeof id === 'string' ? id : JSON.stringify(id) ?? String(id) };
}

/** The person's pick of a CLI to connect or disconnect; undefined when none is picked or none fits (said why). */
export async function pickCli(verb: CliVerb, choices: readonly CliChoice[]): Promise<string | undefined> {
  const fits = choices.filter((c) => c.connected === (verb === 'disconnect'));
  if (!fits.length) {
    void say.info(verb === 'connect'
      ? vscode.l10n.t('Assistant Cards: every assistant CLI it knows is connected already.')
      : vscode.l10n.t('Assistant Cards: no assistant CLI is connected; nothing to disconnect.'));
    return undefined;
  }
  const items = fits.map((c) => ({ label: plainText(c.name, 60), description: plainText(c.file, 300), id: c.id }));
  const picked = await vscode.window.showQuickPick(items, verb === 'connect'
    ? { title: vscode.l10n.t('Connect an Assistant CLI'), placeHolder: vscode.l10n.t('Pick the CLI to connect: its settings file is shown before anything is written'), matchOnDescription: true }
    : { title: vscode.l10n.t('Disconnect an Assistant CLI'), placeHolder: vscode.l10n.t('Pick the CLI to disconnect: its hooks of Assistant Cards are taken out of this file'), matchOnDescription: true });
  return picked?.id;
}

/** What the command needs around the pick: which ids are ours, every CLI's state now, the flow itself. */
export interface CliCommandDeps<T> {
  /** Which ids are ours: the argument's check (it is untrusted: a keybinding's `args`, a test). */
  isCli(id: unknown): boolean;
  states(): Promise<readonly CliChoice[]>;
  apply(verb: CliVerb, id: string): Promise<T>;
  warn(line: string): void;
}

/**
 * The Connect or Disconnect command: on the CLI its argument names (an id, a row of the
 * Assistants view), else on the one the person picks; then the CLI's own flow (`apply`).
 * `unknown`: the argument named no CLI of ours (nothing done, the person told which).
 */
export async function runCliCommand<T>(verb: CliVerb, arg: unknown, deps: CliCommandDeps<T>): Promise<T | 'cancelled' | 'unknown'> {
  const target = cliTargetOf(arg, deps.isCli);
  if ('unknown' in target) {
    deps.warn(`${verb}: no CLI adapter "${target.unknown}"`); // l10n-ignore: for the log
    void say.error(unknownCliWords(verb, target.unknown));
    return 'unknown';
  }
  // The argument's id is checked above (cliTargetOf); a picked one is one of the adapters' own states.
  const id = 'id' in target ? target.id : await pickCli(verb, await deps.states());
  if (!id) return 'cancelled';
  return deps.apply(verb, id);
}

/** The words for an argument that names no CLI of ours (a keybinding's `args` with a typo). */
export function unknownCliWords(verb: CliVerb, named: string): string {
  return verb === 'connect'
    ? vscode.l10n.t('Assistant Cards: there is no assistant CLI "{0}" to connect. Run "Connect an Assistant CLI…" without an argument to pick one.', plainText(named, 80))
    : vscode.l10n.t('Assistant Cards: there is no assistant CLI "{0}" to disconnect. Run "Disconnect an Assistant CLI…" without an argument to pick one.', plainText(named, 80));
}
