// A TypeScript snippet run in a Node process of its own (tsx), as a CLI runs the bridge's hook: a
// fresh module graph, an environment of the test's choosing, and (detached) no controlling
// terminal. Resolves with what it printed once it exited 0; fails with its stderr otherwise.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';

export async function runTsChild(code: string, o: { env?: NodeJS.ProcessEnv; detached?: boolean } = {}): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'], env: o.env ?? process.env, detached: o.detached ?? false });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
  child.stderr.on('data', (c: Buffer) => { err += c.toString(); });
  const exit = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(exit, 0, err);
  return out;
}
