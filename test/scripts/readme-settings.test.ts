// Both READMEs (the repository's and the Marketplace page's) name every setting the manifest
// contributes: a setting nobody can read about is one nobody changes.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, unknown> } } };

describe('the READMEs and the settings', () => {
  for (const readme of ['README.md', 'README.vsix.md']) {
    it(`${readme} names every contributed setting in its settings table`, () => {
      const text = fs.readFileSync(path.join(root, readme), 'utf8');
      const missing = Object.keys(manifest.contributes.configuration.properties).filter((k) => !text.includes(`| \`${k}\` |`));
      assert.deepEqual(missing, [], `${readme} leaves out ${missing.join(', ')}`);
    });
  }
});
