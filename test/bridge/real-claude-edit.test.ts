// The real Claude Code (scripts/install-clis.mjs, the test cache) asks to change a file through a
// card that shows the change as a diff (#54): the scripted model reads a file in the project, then
// calls Edit (or Write) on it; Connect's hook makes the card. The card's summary has the diff, its
// marks in the gutter; Approve lets Claude Code apply the change, and Decline's note reaches the
// model with the file left as it was. The set-up is the shared real-CLI kit's (real-cli-kit.ts).
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { runClaude, type RunResult } from './cli-run';
import { entriesFor, hookCommand } from '../../src/bridge/connect-settings';
import { startScriptedModel, type Step } from './scripted-model';
import { realCliKit } from './real-cli-kit';
import { summaryParts } from '../../src/shared/summary-blocks';

const BEFORE = 'export const greeting = \'hello\';\nexport const answer = 41;\n';
const OLD = 'export const answer = 41;';
const NEW = 'export const answer = 42;\nexport const question = \'?\';';
const AFTER = BEFORE.replace(OLD, NEW);

describe('bridge: the real Claude Code asks to change a file through a card that shows the diff (#54)', function () {
  this.timeout(120_000);
  const kit = realCliKit({ prefix: 'real-claude-edit-', install: (i) => i.ensureClaudeCode({ quiet: true }) });
  /** The CLI's process, ended after a test that failed before it did (it would wait on its hook for minutes). */
  let cliPid = 0;
  afterEach(() => {
    if (cliPid) try { process.kill(cliPid, 'SIGKILL'); } catch { /* it ended */ }
    cliPid = 0;
  });

  /** The file the model changes, in the project; Claude Code edits only a file it has read. */
  const file = () => path.join(fs.realpathSync(kit.box.project), 'src', 'app.ts');
  const hooks = async (): Promise<Record<string, unknown>> => {
    const entries = entriesFor('claude-code', hookCommand(await kit.launcher(), 'claude-code'));
    return Object.fromEntries(Object.entries(entries).map(([event, group]) => [event, [group]]));
  };
  /** Claude Code asked to read the file, then to change it with `change`. */
  const run = async (change: Step): Promise<RunResult> => {
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.writeFileSync(file(), BEFORE);
    const model = kit.useModel(await startScriptedModel({ claude: [{ tool: 'Read', input: { file_path: file() } }, change, { text: 'All done.' }] }));
    return runClaude({ bin: kit.bin, model, box: kit.box, prompt: 'Give the right answer.', hooksJson: await hooks(), timeoutMs: 100_000, env: { ASSISTANT_CARDS_HOME: kit.box.root }, onSpawn: (pid) => { cliPid = pid; } });
  };
  const editOf = (): Step => ({ tool: 'Edit', input: { file_path: file(), old_string: OLD, new_string: NEW } });

  it('Edit: the card\'s summary has the diff (- the old line, + the new ones); Approve applies the edit', async () => {
    const done = run(editOf());
    const card = await kit.whole((await kit.card('Claude Code\'s Edit card')).id);
    const summary = card.summary ?? '';
    assert.equal(card.title, 'Claude Code asks to edit app.ts');
    assert.match(summary, /^Tool: Edit$/m);
    assert.ok(summary.includes(`File (file_path): ${file()}`), summary);
    assert.ok(summary.includes([
      'Change, line by line (old_string → new_string; - removed, + added):',
      '\u2502- export const answer = 41;',
      '\u2502+ export const answer = 42;',
      '\u2502+ export const question = \'?\';',
    ].join('\n')), `the diff on the card:\n${summary}`);
    const diff = summaryParts(summary).find((p) => p.kind === 'quoted' && p.diff);
    assert.deepEqual(diff?.kind === 'quoted' && diff.diff, { removed: 1, added: 2 }, 'the display reads it as a diff');
    assert.equal(fs.readFileSync(file(), 'utf8'), BEFORE, 'nothing changed before the person answered');

    await kit.answer(card.id, { approved: true });
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.equal(fs.readFileSync(file(), 'utf8'), AFTER, 'Claude Code applied the approved edit');
    assert.equal((await kit.whole(card.id)).status, 'done');
  });

  it('Edit: Decline with a note leaves the file as it was, and the note reaches the model', async () => {
    const done = run(editOf());
    const card = await kit.card('Claude Code\'s Edit card');
    await kit.answer(card.id, { approved: false, note: { text: 'Keep 41, it is the right answer.' } });
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.equal(fs.readFileSync(file(), 'utf8'), BEFORE, 'the declined edit was not applied');
    assert.ok(kit.model!.seenText('anthropic').includes('Keep 41, it is the right answer.'), 'the note reached the model');
  });

  it('Write over the file it read: the card compares with the file on this computer, then shows the content whole; Approve writes it', async () => {
    const done = run({ tool: 'Write', input: { file_path: file(), content: AFTER } });
    const card = await kit.whole((await kit.card('Claude Code\'s Write card')).id);
    const summary = card.summary ?? '';
    assert.equal(card.title, 'Claude Code asks to write app.ts');
    assert.ok(summary.includes([
      'Change to the file on this computer (2 lines now), its changed lines (- removed, + added):',
      'At line 1:',
      '\u2502  export const greeting = \'hello\';',
      '\u2502- export const answer = 41;',
      '\u2502+ export const answer = 42;',
      '\u2502+ export const question = \'?\';',
      '\u2502  ',
    ].join('\n')), `the diff against the file, read by the hook on this computer:\n${summary}`);
    assert.ok(summary.includes(`Content (content):\n${AFTER.split('\n').map((l) => `\u2502 ${l}`).join('\n')}`), 'the content, whole');
    await kit.answer(card.id, { approved: true });
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.equal(fs.readFileSync(file(), 'utf8'), AFTER, 'Claude Code wrote the approved content');
  });
});
