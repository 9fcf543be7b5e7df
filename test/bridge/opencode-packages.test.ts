// OpenCode's config-folder packages in the test cache (opencode-packages.ts), on made-up folders
// shaped as OpenCode 1.18.33's install leaves them: given only when whole and of OpenCode's version,
// else OpenCode downloads them as always; kept only from a whole install.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { givePackages, keepPackages, packagesMissing, type PackagesCache } from './opencode-packages';

const VERSION = '1.18.33';

/** A config folder after OpenCode's install: the plugin at `version`, a dependency of it, another platform's optional build absent. */
function installed(folder: string, version = VERSION): void {
  const write = (rel: string, data: unknown) => {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    fs.writeFileSync(path.join(folder, rel), JSON.stringify(data));
  };
  write('package.json', { dependencies: { '@opencode-ai/plugin': version } });
  write('package-lock.json', {
    lockfileVersion: 3,
    packages: {
      '': { dependencies: { '@opencode-ai/plugin': version } },
      'node_modules/@opencode-ai/plugin': { version },
      'node_modules/zod': { version: '4.0.0' },
      'node_modules/@msgpackr-extract/msgpackr-extract-darwin-arm64': { version: '3.0.3', optional: true },
    },
  });
  write('node_modules/@opencode-ai/plugin/package.json', { name: '@opencode-ai/plugin', version });
  write('node_modules/zod/package.json', { name: 'zod', version: '4.0.0' });
}

describe('bridge: OpenCode\'s config-folder packages kept in the test cache', () => {
  let root: string;
  let cache: PackagesCache;
  let config: string;
  let box: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'opencode-packages-'));
    cache = { dir: path.join(root, 'cache', 'config-packages'), version: VERSION };
    config = path.join(root, 'config');
    box = path.join(root, 'box');
    fs.mkdirSync(box);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a whole install is kept, then given: the next config folder holds the same packages', () => {
    installed(config);
    assert.match(keepPackages(config, cache), /kept in/);
    assert.match(givePackages(box, cache), /from the cache/);
    assert.equal(packagesMissing(box, VERSION), undefined);
    assert.deepEqual(fs.readdirSync(box).sort(), ['node_modules', 'package-lock.json', 'package.json']);
    assert.equal(fs.readFileSync(path.join(box, 'package-lock.json'), 'utf8'), fs.readFileSync(path.join(config, 'package-lock.json'), 'utf8'));
    assert.match(keepPackages(config, cache), /already in the cache/);
  });

  it('nothing kept yet: nothing is given (OpenCode downloads)', () => {
    assert.match(givePackages(box, cache), /downloaded by OpenCode \(the cache: not kept yet\)/);
    assert.deepEqual(fs.readdirSync(box), []);
  });

  it('a cache of another OpenCode version is not given, and is replaced by this version\'s install', () => {
    installed(config, '1.17.0');
    assert.match(keepPackages(config, { ...cache, version: '1.17.0' }), /kept in/);
    assert.match(givePackages(box, cache), /the cache: kept for OpenCode 1\.17\.0/);
    assert.deepEqual(fs.readdirSync(box), []);
    const now = path.join(root, 'now');
    installed(now);
    assert.match(keepPackages(now, cache), /kept in/);
    assert.match(givePackages(box, cache), /from the cache/);
  });

  it('a cache missing a package (cut short, or emptied by hand) is not given', () => {
    installed(config);
    keepPackages(config, cache);
    fs.rmSync(path.join(cache.dir, 'node_modules', 'zod'), { recursive: true });
    assert.match(givePackages(box, cache), /the cache: node_modules\/zod is missing/);
    assert.deepEqual(fs.readdirSync(box), []);
  });

  it('an install cut short, or one without the plugin, is not kept', () => {
    installed(config);
    fs.rmSync(path.join(config, 'node_modules', 'zod'), { recursive: true });
    assert.match(keepPackages(config, cache), /not kept \(node_modules\/zod is missing\)/);
    fs.rmSync(path.join(config, 'package-lock.json'));
    assert.match(keepPackages(config, cache), /not kept \(no package-lock.json\)/);
    assert.equal(fs.existsSync(path.dirname(cache.dir)), false, 'nothing written to the cache');
  });
});
