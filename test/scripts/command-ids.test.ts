// The command ids of package.json against the one list the extension registers (COMMAND_NAMES),
// in both directions: a contributed id nobody registers is a menu item or key that fails with
// "command not found"; a registered id the manifest leaves out has no title in the palette. Menus,
// keybindings and `command:` links (welcome views in package.nls.json, walkthrough pages) must
// name registered ids too, as must the editor's own `executeCommand('assistantCards.…')` calls.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMAND_NAMES, commandId } from '../../src/shared/command-names';

const root = path.resolve(__dirname, '..', '..');
const PREFIX = 'assistantCards.';

interface Manifest {
  contributes: {
    commands: { command: string }[];
    menus: Record<string, { command: string }[]>;
    keybindings: { command: string }[];
    views: Record<string, { id: string }[]>;
    walkthroughs: { steps: { media?: { markdown?: string } }[] }[];
  };
}

const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const registered = new Set(COMMAND_NAMES.map(commandId));
const contributed = manifest.contributes.commands.map((c) => c.command);
/** Commands VS Code makes for each view (`<view id>.focus` and the like): not ours to register. */
const viewIds = Object.values(manifest.contributes.views).flat().map((v) => v.id);
const isViewCommand = (id: string) => viewIds.some((v) => id.startsWith(`${v}.`));

/** `command:assistantCards.x` links in text (markdown links in welcome views and walkthroughs). */
const linksIn = (text: string): string[] => [...text.matchAll(/command:(assistantCards\.[A-Za-z.]+)/g)].map((m) => m[1] ?? '');

const missing = (ids: Iterable<string>, from: ReadonlySet<string>) => [...new Set(ids)].filter((id) => !from.has(id)).sort();

describe('command ids: package.json and COMMAND_NAMES', () => {
  it('every contributed command is registered', () => {
    assert.deepEqual(missing(contributed, registered), []);
  });

  it('every registered command is contributed', () => {
    assert.deepEqual(missing(registered, new Set(contributed)), []);
  });

  it('no command is contributed twice', () => {
    assert.deepEqual(contributed.filter((id, i) => contributed.indexOf(id) !== i), []);
  });

  it('every menu item and keybinding of ours names a registered command', () => {
    const used = [
      ...Object.values(manifest.contributes.menus).flat().map((m) => m.command),
      ...manifest.contributes.keybindings.map((k) => k.command),
    ].filter((id) => id.startsWith(PREFIX));
    assert.ok(used.length > 0, 'the manifest has menus and keybindings of ours');
    assert.deepEqual(missing(used, registered), []);
  });

  it('every command: link in welcome views and walkthroughs names a registered command', () => {
    const pages = manifest.contributes.walkthroughs.flatMap((w) => w.steps).flatMap((s) => (s.media?.markdown ? [s.media.markdown] : []));
    const texts = [fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8'), ...pages.map((p) => fs.readFileSync(path.join(root, p), 'utf8'))];
    const links = texts.flatMap(linksIn);
    assert.ok(links.length > 0, 'the welcome views link to commands');
    assert.deepEqual(missing(links, registered), []);
  });

  it('the editor runs only registered commands of ours (or a view\'s own)', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p); else if (e.name.endsWith('.ts')) files.push(p);
      }
    };
    walk(path.join(root, 'src', 'editor'));
    const run = files.flatMap((f) => [...fs.readFileSync(f, 'utf8').matchAll(/executeCommand\(\s*'(assistantCards\.[A-Za-z.]+)'/g)].map((m) => m[1] ?? ''));
    assert.deepEqual(missing(run.filter((id) => !isViewCommand(id)), registered), []);
  });
});
