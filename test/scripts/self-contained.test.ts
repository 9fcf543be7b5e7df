// The repository describes itself: its specs live in docs/spec/, and no file points at a path
// outside the repository (a sibling checkout of the specs, or the folder it was built in), which
// would be a dead link in any other clone.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** Every file git knows here or would add (tracked, plus untracked ones not ignored). */
function repoFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  return [...new Set(out.split('\0').filter(Boolean))].filter((f) => fs.statSync(path.join(root, f), { throwIfNoEntry: false })?.isFile());
}

function textOf(file: string): string | undefined {
  const buf = fs.readFileSync(path.join(root, file));
  return buf.includes(0) ? undefined : buf.toString('utf8');
}

// Built from parts so this file does not name them itself.
const WORK_FOLDER = ['', 'work', ''].join('/');
const SPEC_SIBLING = ['..', 'shared'].join('/');
// What of that sibling a file might name (src/editor's own `../shared/` imports are src/shared).
const SIBLING_DOCS = ['spec', 'DESIGN'];
// A relative path that climbs (`../`, `../../x`): checked against where it lands.
const CLIMB = /(?:\.\.\/)+[\w./-]*/g;

/** What in `text` (of `file`) points outside the repository. */
export function outsideReferences(file: string, text: string): string[] {
  const found: string[] = [];
  if (text.includes(WORK_FOLDER)) found.push(WORK_FOLDER);
  const dir = path.join(root, path.dirname(file));
  for (const m of text.matchAll(CLIMB)) {
    const landed = path.relative(root, path.resolve(dir, m[0]));
    if (landed.startsWith('..') || SIBLING_DOCS.some((d) => m[0].startsWith(`${SPEC_SIBLING}/${d}`))) found.push(m[0]);
  }
  return [...new Set(found)];
}

describe('the repository is self-contained', () => {
  it('holds its API contract: the two specs and the design decisions in docs/spec/', () => {
    for (const f of ['person-api.md', 'incoming-notices.md', 'DESIGN.md']) {
      assert.ok(fs.statSync(path.join(root, 'docs', 'spec', f)).size > 1000, `docs/spec/${f}`);
    }
  });

  it('no text file refers to a path outside the repository', () => {
    const offenders: string[] = [];
    for (const f of repoFiles()) {
      const text = textOf(f);
      if (text === undefined) continue;
      const refs = outsideReferences(f, text);
      if (refs.length) offenders.push(`${f}: ${refs.join(', ')}`);
    }
    assert.deepEqual(offenders, []);
  });

  it('finds such references (checked on made-up files)', () => {
    assert.deepEqual(outsideReferences('docs/decisions.md', `see ${SPEC_SIBLING}/DESIGN.md`), [`${SPEC_SIBLING}/DESIGN.md`]);
    assert.deepEqual(outsideReferences('README.md', `cd ${WORK_FOLDER}main`), [WORK_FOLDER]);
    const up = (n: number) => '../'.repeat(n);
    assert.deepEqual(outsideReferences('src/api/x.ts', `import '${up(3)}elsewhere'`), [`${up(3)}elsewhere`]);
    assert.deepEqual(outsideReferences('src/shared/x.ts', `import { t } from '${up(1)}say'; see ${up(2)}docs/spec/DESIGN.md`), []);
    assert.deepEqual(outsideReferences('src/editor/x.ts', `import { t } from '${SPEC_SIBLING}/l10n'`), []);
    assert.deepEqual(outsideReferences('src/editor/x.ts', `see ${SPEC_SIBLING}/spec/person-api.md`), [`${SPEC_SIBLING}/spec/person-api.md`]);
  });
});
