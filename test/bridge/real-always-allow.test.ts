// "Always allow" with the real Claude Code (#54): Claude Code 2.1.332 (the test cache), connected as
// Connect sets it up (test/bridge/real-cli-kit.ts), runs `npm run build` twice and then a different
// command, against a scripted model. The first asks: the card offers "Always allow: Bash(npm run *)
// in <the project's settings.local.json>", and the person presses it. Claude Code writes that rule
// itself, in the file the card named; the identical second call runs without a card; the different
// one still asks.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { runClaude } from './cli-run';
import { entriesFor, hookCommand } from '../../src/bridge/connect-settings';
import { startScriptedModel } from './scripted-model';
import { until } from '../kit/until';
import { realCliKit, type WireCard } from './real-cli-kit';

type Card = WireCard & { options?: { id: string; label: string }[] };

describe('bridge: "Always allow" with the real Claude Code (#54)', function () {
  this.timeout(180_000);
  const kit = realCliKit({ prefix: 'real-always-', install: (i) => i.ensureClaudeCode({ quiet: true }) });

  it('the person picks Always allow: the rule is written where the card said, the identical call is not asked again, a different one is', async () => {
    const { box } = kit;
    // `npm run build` leaves a mark each time it runs.
    const built = path.join(box.project, 'built.txt');
    fs.writeFileSync(path.join(box.project, 'package.json'), JSON.stringify({ name: 'shop', private: true, scripts: { build: 'node -e "require(\'fs\').appendFileSync(\'built.txt\', \'x\')"' } }));
    const other = path.join(box.project, 'other.txt');
    const model = kit.useModel(await startScriptedModel({ claude: [{ bash: 'npm run build' }, { bash: 'npm run build' }, { bash: `touch ${other}` }, { text: 'All done.' }] }));
    const hooksJson = Object.fromEntries(Object.entries(entriesFor('claude-code', hookCommand(await kit.launcher(), 'claude-code'))).map(([event, group]) => [event, [group]]));
    const done = runClaude({ bin: kit.bin, model, box, prompt: 'Build it twice, then touch a file.', hooksJson, timeoutMs: 150_000, env: { ASSISTANT_CARDS_HOME: box.root } });
    const approvals = async (status: string) => ((await kit.person.request('GET', `/v1/cards?status=${status}&whole=3`)).json.cards as Card[]).filter((c) => c.kind === 'approval');

    const first = await until('the first card', async () => (await approvals('pending'))[0], 90_000, 250);
    assert.equal(first.title, 'Claude Code asks to run: npm run build');
    const file = path.join(box.project, '.claude', 'settings.local.json');
    assert.deepEqual(first.options, [{ id: 'always-allow-1', label: `Always allow: Bash(npm run *) in ${file}` }], 'the card names the rule and the settings file, whole');
    assert.ok(first.summary?.includes(`Settings file: ${file}`), first.summary);
    assert.equal(fs.existsSync(file), false, 'nothing written before the person chose');
    await kit.answer(first.id, { approved: true, choiceIds: ['always-allow-1'] });

    // The different command still asks: its card is the second and last one.
    const second = await until('the different call\'s card', async () => (await approvals('pending')).find((c) => c.id !== first.id), 90_000, 250);
    assert.equal(second.title, `Claude Code asks to run: touch ${other}`);
    assert.equal(fs.readFileSync(built, 'utf8'), 'xx', 'both identical calls ran, the second without asking');
    await kit.answer(second.id, { approved: true });
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.ok(fs.existsSync(other), 'the different call ran once approved');

    // Claude Code wrote the rule itself, in the file the card named.
    const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as { permissions?: { allow?: string[] } };
    assert.deepEqual(settings.permissions?.allow, ['Bash(npm run *)']);
    const all = [...await approvals('done'), ...await approvals('pending')];
    assert.deepEqual(all.map((c) => c.title).sort(), [first.title, second.title].sort(), 'two cards in all: the identical call asked nothing');
    assert.equal(JSON.parse(r.stdout).permission_denials.length, 0);
  });
});
