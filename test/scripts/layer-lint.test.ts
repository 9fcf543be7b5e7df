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

  it('src/bridge imports Node, src/api schemas and its own files only', async () => {
    assert.equal((await restricted('src/bridge/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n")).length, 1);
    for (const from of ['../sync', '../editor/base/say', '../api/client', '../auth/machine', '../sandbox/state', '../shared/format']) {
      assert.equal((await restricted('src/bridge/x.ts', `import * as m from '${from}';\nexport const v = m;\n`)).length, 1, from);
    }
    assert.deepEqual(await restricted('src/bridge/x.ts', "import * as fs from 'node:fs';\nimport type { Card } from '../api/schemas';\nimport { bridgeHome } from './home';\nimport { parse } from 'jsonc-parser';\nexport type C = Card; export const v = [fs, bridgeHome, parse];\n"), []);
  });

  it('only src/editor imports vscode', async () => {
    for (const dir of ['src/bridge', 'src/sync', 'src/api', 'src/auth', 'src/sandbox', 'media/webview']) {
      assert.equal((await restricted(`${dir}/x.ts`, "import * as vscode from 'vscode';\nexport const v = vscode;\n")).length, 1, dir);
    }
  });
});
