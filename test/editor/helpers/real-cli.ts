// What the host tests of a real assistant CLI in a terminal of this window share: the CLI installed
// into the test cache, each wait a state that keeps a screenshot when it times out, the card the
// CLI's hook made found on the service by its title, and a terminal closed only once its CLI exited.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, until } from '../cards-helpers';
import { driver } from './driver';
import type { RunningSandbox } from './sandbox';

/** The CLI's executable, installed on first use by scripts/install-clis.mjs (a first install downloads hundreds of MB). */
export function installedCli(name: 'claude' | 'codex'): string {
  const root = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'install-clis.mjs'), name], { encoding: 'utf8', timeout: 590_000 });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, { bin: string }>)[name]!.bin;
}

/** `until`, keeping a screenshot named `<prefix>-<what>` when the state never comes. */
export function shootingSteps(prefix: string) {
  return async <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms: number): Promise<T> => {
    try {
      return await until(what, probe, ms);
    } catch (e) {
      await driver.screenshot(`${prefix}-${what.replace(/\W+/g, '-')}`).catch(() => undefined);
      throw e;
    }
  };
}

/** The id of the first card made on the service with `title`, or undefined while there is none. */
export async function cardMadeTitled(sb: Pick<RunningSandbox, 'control'>, title: string): Promise<string | undefined> {
  const { changes } = await sb.control<{ changes: { type: string; cardId: string }[] }>('GET', '/_sandbox/changes');
  for (const c of changes.filter((x) => x.type === 'card.created')) {
    const made = await sb.control<{ title: string }>('GET', `/_sandbox/cards/${c.cardId}`);
    if (made.title === title) return c.cardId;
  }
  return undefined;
}

/** Closes the CLI's terminal and waits until the CLI (the terminal's own process) is gone: it writes to its folder as it exits. */
export async function closeCliTerminal(terminal: vscode.Terminal | undefined): Promise<void> {
  const pid = await terminal?.processId;
  terminal?.dispose();
  if (!pid) return;
  await until('the CLI exited', () => { try { process.kill(pid, 0); return undefined; } catch { return true; } }, 30_000).catch(() => undefined);
}
