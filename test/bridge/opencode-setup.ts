// OpenCode's set-up shared by the real-OpenCode tests (its server, real-opencode.test.ts, and its
// terminal UI, real-opencode-tui.test.ts): the service, the person and the scripted model they
// start from (startOpenCodeWorld); in the box, the bridge bundled as it ships and the
// launcher Connect installs, OpenCode's config folder as Connect writes it (the plugin, its wait
// shortened for a test) and as its person sets it (the scripted model as a provider, bash asks),
// and the environment that keeps OpenCode in the box and off the network but for the model.
// OpenCode's own packages in that folder come from the test cache when it has them
// (opencode-packages.ts); `keepOpenCodePackages` puts them there after the first run.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import type { RunningSandbox } from '../../src/sandbox';
import { hookCommand, planConnect } from '../../src/bridge/connect-settings';
import { installHook } from '../../src/bridge/install';
import { setHold, signIn, startSandbox, type SignedIn } from '../sandbox/helpers';
import type { Box } from './cli-run';
import { startScriptedModel, type ScriptedModel } from './scripted-model';
import { installer } from './real-cli-kit';
import { givePackages, keepPackages, type PackagesCache } from './opencode-packages';

/** What both OpenCode tests start from (startOpenCodeWorld). */
export interface OpenCodeWorld { sb: RunningSandbox; person: SignedIn; model: ScriptedModel; env: NodeJS.ProcessEnv }

/**
 * The service announced in `box` with a short hold, the person signed in to it, the scripted model
 * whose one step is the command that touches `marker`, and OpenCode's set-up (setUpOpenCode).
 */
export async function startOpenCodeWorld(box: Box, o: { marker: string; waitS: number }): Promise<OpenCodeWorld> {
  const sb = await startSandbox({ port: 0 });
  const person = await signIn(sb.url);
  await setHold(sb, 200);
  fs.writeFileSync(path.join(box.root, 'local-service.json'), JSON.stringify({ url: sb.url, askKey: sb.askKey, pid: process.pid }), { mode: 0o600 });
  const model = await startScriptedModel({ codex: [{ tool: 'bash', input: { command: `touch ${o.marker}`, description: 'Touch a file' } }, { text: 'All done.' }] });
  return { sb, person, model, env: await setUpOpenCode(box, { modelUrl: model.url, waitS: o.waitS }) };
}

/** OpenCode's packages kept for its version: in its own folder of the test cache, gone with it. */
async function packagesCache(): Promise<PackagesCache> {
  const { openCodePaths } = await installer() as unknown as { openCodePaths(): { dir: string; version: string } };
  const p = openCodePaths();
  return { dir: path.join(p.dir, 'config-packages'), version: p.version };
}
const configFolder = (box: Box) => path.join(box.root, 'xdg-config', 'opencode');

/** Writes the bridge, the plugin and OpenCode's config into `box`; returns the environment to start OpenCode with. */
export async function setUpOpenCode(box: Box, o: { modelUrl: string; waitS: number }): Promise<NodeJS.ProcessEnv> {
  const bridge = path.join(box.root, 'bundle', 'bridge.js');
  await build({ entryPoints: ['src/bridge/main.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bridge, logLevel: 'warning' });
  const config = path.join(box.root, 'xdg-config');
  const { launcher } = await installHook({ binDir: path.join(box.root, 'bin'), runtime: process.execPath, version: 'test', platform: process.platform, bridgeSource: bridge });
  const plan = planConnect(undefined, 'opencode', hookCommand(launcher, 'opencode'));
  assert.ok(plan.ok && plan.changed);
  fs.mkdirSync(path.join(config, 'opencode', 'plugins'), { recursive: true });
  fs.writeFileSync(path.join(config, 'opencode', 'plugins', 'assistant-cards.js'), plan.after.replace(/^const WAIT_S = \d+;$/m, `const WAIT_S = ${o.waitS};`));
  fs.writeFileSync(path.join(config, 'opencode', 'opencode.json'), JSON.stringify({
    model: 'scripted/m1',
    permission: { bash: 'ask' },
    provider: { scripted: { npm: '@ai-sdk/openai', name: 'Scripted', options: { baseURL: `${o.modelUrl}/v1`, apiKey: 'scripted' }, models: { m1: { name: 'm1' } } } },
  }));
  console.log(`      ${givePackages(configFolder(box), await packagesCache())}`);
  return {
    ...process.env, ASSISTANT_CARDS_HOME: box.root, HOME: box.home, OPENCODE_TEST_HOME: box.home,
    XDG_CONFIG_HOME: config, XDG_DATA_HOME: path.join(box.root, 'xdg-data'), XDG_CACHE_HOME: path.join(box.root, 'xdg-cache'), XDG_STATE_HOME: path.join(box.root, 'xdg-state'),
    OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1', OPENCODE_DISABLE_SHARE: '1',
  };
}

/** After OpenCode ran in `box`: keeps the packages it installed there for the next runs (never fails). */
export async function keepOpenCodePackages(box: Box): Promise<void> {
  console.log(`      ${keepPackages(configFolder(box), await packagesCache())}`);
}
