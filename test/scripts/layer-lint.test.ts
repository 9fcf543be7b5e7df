// The layer map is lint's to hold (eslint.config.mjs, docs/architecture.md "The parts"): these
// files are made up and linted as if they stood at the paths named, so a rule that stopped
// matching would fail here, not in a review.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

/** The no-restricted-imports messages for `code` as if it were the file at `file`. */
async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('lint holds the layer map', function () {
  this.timeout(60_000);

  it('src/editor reaches src/sync through its index or contract only', async () => {
    assert.equal((await restricted('src/editor/cards/x.ts', "import { CardModel } from '../../sync/card-model';\nexport const m = CardModel;\n")).length, 1);
    assert.deepEqual(await restricted('src/editor/cards/x.ts', "import { whoKey } from '../../sync';\nimport type { Counts } from '../../sync/contract';\nexport const k = whoKey; export type C = Counts;\n"), []);
  });

  it('src/shared imports neither vscode nor src/editor', async () => {
    assert.equal((await restricted('src/shared/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n")).length, 1);
    assert.equal((await restricted('src/shared/x.ts', "import { say } from '../editor/base/say';\nexport const s = say;\n")).length, 1);
    assert.deepEqual(await restricted('src/shared/x.ts', "import { oneLine } from './format';\nexport const o = oneLine;\n"), []);
  });

  it('only src/editor imports vscode', async () => {
    for (const dir of ['src/sync', 'src/api', 'src/auth', 'src/sandbox', 'media/webview']) {
      assert.equal((await restricted(`${dir}/x.ts`, "import * as vscode from 'vscode';\nexport const v = vscode;\n")).length, 1, dir);
    }
  });
});
