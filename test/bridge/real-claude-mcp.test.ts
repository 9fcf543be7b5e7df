// The real Claude Code (scripts/install-clis.mjs, the test cache) asks for an MCP tool through a
// card: a tiny stdio MCP server (test/fixtures/mcp/tiny-mcp-server.mjs) is configured with
// `--mcp-config`, the scripted model calls its tool with an input of six keys, and Connect's hook
// makes the card. Every key must be on the card (#52 F3: a `command` once hid `host`, a `path` its
// owner, repo and branch), and the person's answer must reach the CLI: Approve runs the tool with
// that input, Decline with a note runs nothing and the model reads the note. The set-up is the
// shared real-CLI kit's (real-cli-kit.ts).
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { runClaude, type RunResult } from './cli-run';
import { entriesFor, hookCommand } from '../../src/bridge/connect-settings';
import { startScriptedModel } from './scripted-model';
import { realCliKit } from './real-cli-kit';

const SERVER = 'fleet';
const TOOL = `mcp__${SERVER}__deploy`;
/** The keys the review found dropped: a command hid the host, a path its owner, repo and branch. */
const INPUT = { command: 'systemctl restart shop --now', host: 'prod-db-1', path: '/srv/shop', owner: 'acme', repo: 'shop', branch: 'release/2026-12' };
const MCP_SERVER = path.join(__dirname, '..', 'fixtures', 'mcp', 'tiny-mcp-server.mjs');

describe('bridge: the real Claude Code asks for an MCP tool through a card (#52 F3)', function () {
  this.timeout(120_000);
  const kit = realCliKit({ prefix: 'real-claude-mcp-', install: (i) => i.ensureClaudeCode({ quiet: true }) });
  /** The CLI's process, ended after a test that failed before it did (it would wait on its hook for minutes). */
  let cliPid = 0;
  afterEach(() => {
    if (cliPid) try { process.kill(cliPid, 'SIGKILL'); } catch { /* it ended */ }
    cliPid = 0;
  });

  const callLog = () => path.join(kit.box.root, 'mcp-calls.jsonl');
  /** Connect's own entries for the launcher installed in the box, as the person's Connect writes them. */
  const hooks = async (): Promise<Record<string, unknown>> => {
    const entries = entriesFor('claude-code', hookCommand(await kit.launcher(), 'claude-code'));
    return Object.fromEntries(Object.entries(entries).map(([event, group]) => [event, [group]]));
  };
  /** Claude Code, with the tiny MCP server as its only one, asked once to call its tool. */
  const run = async (): Promise<RunResult> => {
    const model = kit.useModel(await startScriptedModel({ claude: [{ tool: TOOL, input: INPUT }, { text: 'All done.' }] }));
    const mcpConfig = path.join(kit.box.root, 'mcp.json');
    fs.writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { [SERVER]: { type: 'stdio', command: process.execPath, args: [MCP_SERVER], env: { MCP_CALL_LOG: callLog() } } } }));
    return runClaude({ bin: kit.bin, model, box: kit.box, prompt: 'Deploy the shop.', hooksJson: await hooks(), timeoutMs: 100_000, extraArgs: ['--mcp-config', mcpConfig, '--strict-mcp-config'], env: { ASSISTANT_CARDS_HOME: kit.box.root }, onSpawn: (pid) => { cliPid = pid; } });
  };
  const toolCalls = () => (fs.existsSync(callLog()) ? fs.readFileSync(callLog(), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { name: string; arguments: Record<string, unknown> }) : []);

  it('F3: every key of the MCP tool\'s input is on the card; Approve runs the tool with exactly that input (#52)', async () => {
    const done = run();
    const card = await kit.whole((await kit.card('Claude Code\'s approval card')).id);
    const summary = card.summary ?? '';
    assert.equal(card.title, `Claude Code asks to use ${TOOL} to run: ${INPUT.command}`, 'the title names the tool and the command');
    assert.match(summary, new RegExp(`^Tool: ${TOOL}$`, 'm'));
    // The keys the card words, each under its own label...
    assert.match(summary, /^Will run \(command\):\n│ systemctl restart shop --now$/m, summary);
    assert.match(summary, /^Path \(path\): \/srv\/shop$/m, summary);
    // ...and the rest as they came, under their own heading: none dropped.
    assert.match(summary, /^Other input, as it came \(4 keys\):$/m, summary);
    for (const key of ['host', 'owner', 'repo', 'branch'] as const) {
      assert.ok(summary.includes(`│   ${JSON.stringify(key)}: ${JSON.stringify(INPUT[key])}`), `${key} is on the card: ${summary}`);
    }
    assert.match(summary, new RegExp(`^In: (${fs.realpathSync(kit.box.project)}|${kit.box.project})$`, 'm'), 'the folder it runs in');
    assert.deepEqual(toolCalls(), [], 'nothing ran before the person answered');

    await kit.answer(card.id, { approved: true });
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.deepEqual(toolCalls(), [{ name: 'deploy', arguments: INPUT }], 'the MCP server ran the tool once, with the input the card showed');
    assert.ok(kit.model!.seenText('anthropic').includes('deployed on prod-db-1: tiny-mcp-server ran it.'), 'the tool\'s result reached the model');
    assert.equal((await kit.whole(card.id)).status, 'done');
  });

  it('F3: Decline with a note on the MCP tool\'s card: the tool never runs, and the model reads the note (#52)', async () => {
    const done = run();
    const card = await kit.card('Claude Code\'s approval card');
    await kit.answer(card.id, { approved: false, note: { text: 'Not prod-db-1 on a Friday.' } });
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.deepEqual(toolCalls(), [], 'the declined tool did not run');
    assert.ok(kit.model!.seenText('anthropic').includes('Not prod-db-1 on a Friday.'), 'the note reached the model');
  });
});
