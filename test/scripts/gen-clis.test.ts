// The CLI adapters' list (#53/#54): a new CLI is its adapter file in src/bridge/clis/, and
// scripts/gen-clis.mjs lists it in all.generated.ts (committed, so tsc, eslint and mocha read it
// without a build). This fails while the committed list is not the one the folder gives.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ADAPTERS, CLIS } from '../../src/bridge/clis/index';

const root = path.resolve(__dirname, '..', '..');
const load = async () => import('../../scripts/gen-clis.mjs');

describe('the CLI adapters\' list, generated from their folder', () => {
  it('src/bridge/clis/all.generated.ts is what scripts/gen-clis.mjs writes (run it after adding an adapter)', async () => {
    const { CLIS_DIR, GENERATED, generate } = await load();
    assert.equal(fs.readFileSync(path.join(CLIS_DIR, GENERATED), 'utf8'), generate(), 'stale: run node scripts/gen-clis.mjs');
  });

  it('lists each adapter file\'s adapter by its order, and the ids it read are the adapters\' own', async () => {
    const { adaptersIn } = await load();
    const found = adaptersIn();
    assert.deepEqual(found.map((a) => a.id), [...CLIS]);
    assert.deepEqual(ADAPTERS.map((a) => a.id), [...CLIS], 'each adapter says the id the generator read');
    assert.deepEqual(ADAPTERS.map((a) => a.order), found.map((a) => a.order));
    assert.ok(found.every((a, i) => i === 0 || a.order > found[i - 1]!.order));
  });

  it('a new adapter file joins the list by itself; one without its id or order, or a second with the same order, is an error that names the file', async () => {
    const { generate } = await load();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gen-clis-'));
    try {
      const src = path.join(root, 'src', 'bridge', 'clis');
      for (const f of fs.readdirSync(src)) if (f.endsWith('.ts')) fs.copyFileSync(path.join(src, f), path.join(dir, f));
      const gemini = fs.readFileSync(path.join(dir, 'gemini-cli.ts'), 'utf8');
      const fake = gemini.replace('export const geminiCli: CliAdapter', 'export const piCli: CliAdapter').replace("id: 'gemini-cli',", "id: 'pi',").replace(/order: \d+,/, 'order: 35,');
      fs.writeFileSync(path.join(dir, 'pi.ts'), fake);
      const text = generate(dir);
      assert.match(text, /import \{ piCli \} from '\.\/pi';/);
      assert.match(text, /CLI_IDS = \['claude-code', 'codex', 'gemini-cli', 'pi', 'copilot-cli', 'opencode'\] as const;/);
      assert.match(text, /ALL_ADAPTERS: readonly CliAdapter\[\] = \[claudeCode, codex, geminiCli, piCli, copilotCli, openCode\];/);

      fs.writeFileSync(path.join(dir, 'pi.ts'), fake.replace(/ {2}order: 35,\n/, ''));
      assert.throws(() => generate(dir), /pi\.ts: the adapter piCli needs a literal `id: '…',` and `order: <n>,`/);
      fs.writeFileSync(path.join(dir, 'pi.ts'), fake.replace('order: 35,', 'order: 30,'));
      assert.throws(() => generate(dir), /two adapters say order 30: gemini-cli\.ts, pi\.ts|two adapters say order 30: pi\.ts, gemini-cli\.ts/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
