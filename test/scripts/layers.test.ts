// The layer map (eslint-rules/layers.mjs, in eslint.config.mjs) fails on a planted import of each
// forbidden kind, through the project's own ESLint configuration, and lets the allowed ones be.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '..', '..');

describe('the layer map holds every layer (eslint)', function () {
  this.timeout(60_000);
  let eslint: ESLint;
  before(() => { eslint = new ESLint({ cwd: root }); });

  /** The layer rule's messages for `code` linted as if it were `file`. */
  async function refusals(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'layers/allowed-imports').map((m) => m.message);
  }

  const forbidden: [string, string, string, RegExp][] = [
    ['api -> auth', 'src/api/planted.ts', "import { x } from '../auth/keys';\nexport const y = x;\n", /layer 'api' may not import 'auth\/keys'/],
    ['api -> sync', 'src/api/planted.ts', "import { x } from '../sync';\nexport const y = x;\n", /layer 'api' may not import 'sync\/index'/],
    ['api -> editor', 'src/api/planted.ts', "import { x } from '../editor/extension';\nexport const y = x;\n", /layer 'api' may not import 'editor\/extension'/],
    ['auth -> sync', 'src/auth/planted.ts', "import { x } from '../sync/card-model';\nexport const y = x;\n", /layer 'auth' may not import 'sync\/card-model'/],
    ['auth -> editor', 'src/auth/planted.ts', "import type { X } from '../editor/extension';\nexport type Y = X;\n", /layer 'auth' may not import 'editor\/extension'/],
    ['sync -> editor', 'src/sync/planted.ts', "import { x } from '../editor/extension';\nexport const y = x;\n", /layer 'sync' may not import 'editor\/extension'/],
    ['media -> editor', 'media/webview/planted.ts', "import { x } from '../../src/editor/panel/card-panel';\nexport const y = x;\n", /layer 'media' may not import 'editor\/panel\/card-panel'/],
    ['media -> sync', 'media/webview/planted.ts', "import { x } from '../../src/sync';\nexport const y = x;\n", /layer 'media' may not import 'sync\/index'/],
    ['media -> the wire\'s types', 'media/webview/planted.ts', "import type { Card } from '../../src/api/schemas';\nexport type C = Card;\n", /layer 'media' may not import 'api\/schemas'/],
    ['media -> the wire\'s values', 'media/webview/planted.ts', "import { Card } from '../../src/api/schemas';\nexport const C = Card;\n", /layer 'media' may not import 'api\/schemas'/],
    ['shared -> sync, a value', 'src/shared/planted.ts', "import { whoKey } from '../sync';\nexport const y = whoKey;\n", /layer 'shared' may not import values of 'sync\/index'/],
    ['shared -> a Node module', 'src/shared/planted.ts', "import * as path from 'node:path';\nexport const y = path.sep;\n", /may not import the package 'node:path'/],
    ['sync -> vscode', 'src/sync/planted.ts', "import * as vscode from 'vscode';\nexport const y = vscode.version;\n", /may not import the package 'vscode'/],
    ['editor -> a sync internal', 'src/editor/planted.ts', "import { x } from '../sync/card-model';\nexport const y = x;\n", /layer 'editor' may not import 'sync\/card-model'/],
    ['bridge -> the api client', 'src/bridge/planted.ts', "import { x } from '../api/client';\nexport const y = x;\n", /layer 'bridge' may not import 'api\/client'/],
    ['sandbox -> the api client, dynamically', 'src/sandbox/planted.ts', "export const y = () => import('../api/client');\n", /layer 'sandbox' may not import 'api\/client'/],
    ['bridge -> the wire\'s zod values (a hook loads no zod)', 'src/bridge/planted.ts', "import { Card } from '../api/schemas';\nexport const C = Card;\n", /layer 'bridge' may not import values of 'api\/schemas'/],
    ['a file in a folder of src/ that no layer holds', 'src/tools/planted.ts', "import * as fs from 'node:fs';\nexport const y = fs;\n", /'src\/tools\/planted' is in no layer of the map/],
    ['a file beside the layers\' folders', 'src/planted.ts', "import { x } from './api/schemas';\nexport const y = x;\n", /'src\/planted' is in no layer of the map/],
    ['a layer -> a folder of src/ that no layer holds', 'src/sync/planted.ts', "import { x } from '../tools/thing';\nexport const y = x;\n", /layer 'sync' may not import 'tools\/thing'/],
  ];
  for (const [what, file, code, message] of forbidden) {
    it(`refuses ${what}`, async () => {
      const said = await refusals(file, code);
      assert.equal(said.length, 1, `one refusal: ${JSON.stringify(said)}`);
      assert.match(said[0]!, message);
    });
  }

  it('every folder of src/ is a layer of the map, and src/ holds no file outside them', async () => {
    const { LAYERS } = (await import(path.join(root, 'eslint-rules', 'layers.mjs'))) as { LAYERS: Record<string, unknown> };
    const entries = fs.readdirSync(path.join(root, 'src'), { withFileTypes: true });
    assert.deepEqual(entries.filter((e) => !e.isDirectory()).map((e) => e.name), [], 'files beside the layers\' folders');
    for (const e of entries) assert.ok(e.name in LAYERS, `src/${e.name} is a layer of eslint-rules/layers.mjs`);
  });

  it('only src/editor imports vscode', async () => {
    for (const dir of ['src/bridge', 'src/sync', 'src/api', 'src/auth', 'src/sandbox', 'src/shared', 'media/webview']) {
      assert.equal((await refusals(`${dir}/planted.ts`, "import * as vscode from 'vscode';\nexport const v = vscode;\n")).length, 1, dir);
    }
  });

  it('src/bridge imports Node, src/api schemas and its own files only', async () => {
    for (const from of ['../sync', '../editor/base/say', '../api/client', '../auth/machine', '../sandbox/state', '../shared/format', '../shared/spoken']) {
      assert.equal((await refusals('src/bridge/planted.ts', `import * as m from '${from}';\nexport const v = m;\n`)).length, 1, from);
    }
    assert.deepEqual(await refusals('src/bridge/planted.ts', "import * as fs from 'node:fs';\nimport type { Card } from '../api/schemas';\nimport { bridgeHome } from './home';\nimport { parse } from 'jsonc-parser';\nexport type C = Card; export const v = [fs, bridgeHome, parse];\n"), []);
  });

  const allowed: [string, string, string][] = [
    ['sync -> auth and api', 'src/sync/planted.ts', "import { x } from '../auth/keys';\nimport { z } from '../api/schemas';\nexport const y = [x, z];\n"],
    ['shared -> the core\'s contract, types only', 'src/shared/planted.ts', "import type { Counts } from '../sync/contract';\nexport type Y = Counts;\n"],
    ['media -> shared, and the panel\'s card', 'media/webview/planted.ts', "import { x } from '../../src/shared/format';\nimport type { PanelCard } from '../../src/shared/panel-card';\nexport const y: [unknown, PanelCard?] = [x];\n"],
    ['editor -> the core\'s index and vscode', 'src/editor/planted.ts', "import * as vscode from 'vscode';\nimport { x } from '../sync';\nexport const y = [vscode, x];\n"],
  ];
  for (const [what, file, code] of allowed) {
    it(`lets ${what} be`, async () => {
      assert.deepEqual(await refusals(file, code), []);
    });
  }
});
