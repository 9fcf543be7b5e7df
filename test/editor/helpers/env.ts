// What the runner (scripts/host-test.mjs) hands a host test through the extension host's env.
import * as path from 'node:path';

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run host tests through scripts/host-test.mjs`);
  return v;
}

export const testEnv = {
  /** The repository root (dist/, package.json). */
  get root(): string { return need('ASSISTANT_CARDS_TEST_ROOT'); },
  /** The workspace folder this window opened (fresh per run). */
  get workspace(): string { return need('ASSISTANT_CARDS_TEST_WORKSPACE'); },
  /** The identity file the workspace settings point at; exists, its baseUrl has no service. */
  get machineFile(): string { return need('ASSISTANT_CARDS_TEST_MACHINE_FILE'); },
  get artifacts(): string { return process.env.ASSISTANT_CARDS_TEST_ARTIFACTS ?? path.join(this.root, 'artifacts'); },
  /** The Playwright bridge; undefined under @vscode/test-electron. */
  get driver(): string | undefined { return process.env.ASSISTANT_CARDS_TEST_DRIVER || undefined; },
  /** An origin whose links open without VS Code's prompt, in a tab the driver sees (undefined on VS Code 1.93). */
  get linkOrigin(): string | undefined { return process.env.ASSISTANT_CARDS_TEST_LINK_ORIGIN || undefined; },
  /** Any other value passed with `--env NAME=value` or ASSISTANT_CARDS_TEST_* in the runner's env. */
  get(name: string): string | undefined { return process.env[name]; },
};
