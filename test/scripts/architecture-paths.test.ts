// docs/architecture.md names files and folders: each one it names is there. A name with a slash is
// read from the repository's root, from src/ or from src/editor/ (the page says `sync/reads.ts`,
// `connection/state-shown.ts`); a bare file name is the name of some file of the sources. Built
// files (dist/) and the bridge's home (bin/) are made at build or at Connect, not kept here.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const PAGE = path.join(root, 'docs', 'architecture.md');
const SOURCES = ['src', 'media', 'test', 'scripts', 'bench', 'eslint-rules'];
const BASES = ['', 'src', 'src/editor'];

/** Every name of a source file or folder on the page: `x/y.ts`, `y.mjs`, `src/editor/connect/`, `media/webview`. */
export function namedPaths(page: string): string[] {
  const found = new Set<string>();
  for (const m of page.matchAll(/(?<![\w./<>-])((?:[\w-]+\/)*[\w.-]+\.(?:ts|mjs|json)|(?:src|media|test|scripts|bench|eslint-rules)(?:\/[\w-]+)*\/?)(?![\w/-])/g)) {
    const name = m[1]!.replace(/\/$/, '');
    if (/^(dist|bin)\//.test(name) || /^(local-service|package)\.json$/.test(name)) continue;
    found.add(name);
  }
  return [...found].sort();
}

function allFiles(dir: string, out: Set<string> = new Set()): Set<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) allFiles(full, out); else out.add(e.name);
  }
  return out;
}

describe('docs/architecture.md names only what is there', () => {
  const page = fs.readFileSync(PAGE, 'utf8');
  const names = namedPaths(page);
  const baseNames = new Set<string>();
  for (const d of SOURCES) allFiles(path.join(root, d), baseNames);

  it('finds the names it checks (a planted page)', () => {
    assert.deepEqual(namedPaths('see `src/words/` and shared/spoken.ts, `card-model.ts`, connect/ and dist/bridge.js'),
      ['card-model.ts', 'shared/spoken.ts', 'src/words']);
    assert.ok(names.length > 100, `the page names ${names.length} paths`);
  });

  it('every file and folder it names exists', () => {
    const missing = names.filter((n) => n.includes('/') || !/\.\w+$/.test(n)
      ? !BASES.some((b) => fs.existsSync(path.join(root, b, n)))
      : !baseNames.has(n));
    assert.deepEqual(missing, []);
  });
});
