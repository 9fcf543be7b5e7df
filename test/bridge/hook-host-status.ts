// The hook host as the tests see it (src/bridge/hook-host.ts): whether it can run here, and its own
// account, read with curl over its socket as the launcher reaches it.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { hookHostSocket, hostAnswers } from '../../src/bridge/hook-host';
import { launcherName } from '../../src/bridge/install';
import { until } from '../kit/until';

/** Linux with curl on the PATH: where the launcher hands events to a hook host. */
export const hookHostRuns = (): boolean => process.platform === 'linux' && spawnSync('sh', ['-c', 'command -v curl']).status === 0;

/** The host of bridge home `home`: its pid and how many events it ran, or undefined when none answers. */
export function hookHostStatus(home: string): { pid: number; served: number } | undefined {
  const r = spawnSync('curl', ['-sf', '--unix-socket', hookHostSocket(home), 'http://hooks/status'], { encoding: 'utf8' });
  return r.status === 0 ? (JSON.parse(r.stdout) as { pid: number; served: number }) : undefined;
}

/**
 * A host for bridge home `home` started as the launcher starts one: by an event it cannot use (no
 * session named: nothing done), which `bridge.js hook` runs and then starts a host; waits until it answers.
 */
export async function startHookHost(home: string): Promise<{ pid: number; served: number }> {
  const launcher = `${home}/bin/${launcherName(process.platform)}`;
  const first = spawnSync(launcher, ['hook', 'claude-code'], { input: '{}', encoding: 'utf8', env: { ...process.env, ASSISTANT_CARDS_HOME: home } });
  assert.equal(first.status, 0, first.stderr);
  await until('the hook host answers', () => hostAnswers(hookHostSocket(home)), 20_000);
  return hookHostStatus(home)!;
}
