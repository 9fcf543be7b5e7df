// A stopped sandbox blanks the address in its identity file; the window must stop calling that
// port at once (#37): a probe that took the freed port got the person's DPoP proofs for 40 s.
// The identity file's watcher reacts to a change, not only to a create or a delete.
import '../../bench/with-vscode-stub'; // first: src/editor modules import `vscode`
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { watchMachineFile } from '../../src/editor/connection/service-settings';

describe('the identity file is watched for changes (a blanked address)', () => {
  it('a change to the file, as a create or a delete, makes the window look again', () => {
    const workspace = vscode.workspace as unknown as Record<string, unknown>;
    const before = workspace.createFileSystemWatcher;
    const handlers: Record<string, () => void> = {};
    const on = (name: string) => (h: () => void) => { handlers[name] = h; return { dispose() {} }; };
    workspace.createFileSystemWatcher = () => ({ onDidCreate: on('create'), onDidChange: on('change'), onDidDelete: on('delete'), dispose() {} });
    let looks = 0;
    const watch = watchMachineFile(() => { looks++; });
    try {
      assert.ok(handlers.change, 'a change is watched');
      handlers.change?.();
      handlers.create?.();
      handlers.delete?.();
      assert.equal(looks, 3);
    } finally {
      watch.dispose();
      workspace.createFileSystemWatcher = before;
    }
  });
});
