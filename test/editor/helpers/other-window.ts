// Another window of this folder, with this extension (as in development) in an extension host of
// its own, opened in the runner's browser as a person opens a second window; what a person does
// there (a command from its palette); and its end once closed: code-server may keep a closed
// window's extension host for its reconnection grace time, and then it is ended as a crash of
// that window would end it, only once /proc says it is an extension host.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { processGone } from '../../../src/bridge/process-alive';
import { until } from '../cards-helpers';
import { driver } from './driver';
import { testEnv } from './env';
import { PICK_INPUT } from './quick-pick';
import { testLog } from './test-log';

/** Opens this folder in a new tab named `page`, with this extension; resolves once its workbench shows. */
export async function openWindow(page: string): Promise<void> {
  const base = testEnv.get('ASSISTANT_CARDS_TEST_VSCODE_URL')!;
  const payload = [['extensionDevelopmentPath', `vscode-remote://${new URL(base).host}${testEnv.root}`]];
  await driver.open(page, `${base}/?folder=${encodeURIComponent(testEnv.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
  await driver.waitFor({ selector: '.monaco-workbench', page, timeout: 60_000 });
}

/**
 * Runs a command in `page`'s palette by its title (F1, the title typed, Enter on its row), again
 * while its row does not come (the extension still starting), bounded by `ms`.
 */
export async function runInWindow(page: string, title: string, ms = 120_000): Promise<void> {
  const row = { selector: `.quick-input-list .monaco-list-row:has-text(${JSON.stringify(title)})`, page };
  await until(`${title} run in the window ${page}`, async () => {
    await driver.press('F1', { page });
    await driver.waitFor({ selector: PICK_INPUT, page });
    await driver.type(title, page);
    if (!await driver.waitFor({ ...row, timeout: 10_000 }).then(() => true, () => false)) { await driver.press('Escape', { page }); return undefined; }
    await driver.press('Enter', { page });
    return true;
  }, ms, 1_000);
}

/** The command line of process `pid`, its arguments joined by spaces ('' once it is gone). */
function commandLine(pid: number): string {
  try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '); } catch { return ''; }
}

/** The extension hosts running now (Linux /proc), other than this test's own. */
export function extensionHosts(): Set<number> {
  const hosts = new Set<number>();
  for (const name of fs.readdirSync('/proc')) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid !== process.pid && /--type=extensionHost/.test(commandLine(pid))) hosts.add(pid);
  }
  return hosts;
}

/**
 * After its window closed, the extension host `pid` ends (bound: 20 s); one code-server keeps is
 * ended as a crash of that window would (SIGKILL), only after /proc/<pid>/cmdline says it is an
 * extension host: never the server the other tests stand on. Says which way it went.
 */
export async function closedWindowsHostEnded(pid: number, closedAt: number, who: string): Promise<'ended' | 'ended by the test'> {
  if (await until(`${who}'s extension host gone`, () => processGone(pid) || undefined, 20_000).then(() => true, () => false)) {
    testLog(`[window] ${who}'s extension host ended ${Date.now() - closedAt} ms after its window closed`);
    return 'ended';
  }
  const cmdline = commandLine(pid);
  assert.match(cmdline, /--type=extensionHost/, `${pid} is not an extension host: ${cmdline}`);
  process.kill(pid, 'SIGKILL');
  await until(`${who}'s extension host ended`, () => processGone(pid) || undefined, 10_000);
  testLog(`[window] ${who}'s extension host was still there ${Date.now() - closedAt} ms after its window closed: ended (SIGKILL)`);
  return 'ended by the test';
}
