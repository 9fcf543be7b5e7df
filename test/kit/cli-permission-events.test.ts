// The rows the workbench test and the bench run the hook with are each CLI's own shape: its
// adapter reads each as a permission for the shell command, and prints Approve as the row expects.
import { strict as assert } from 'node:assert';
import { adapterOf, CLIS } from '../../src/bridge/clis/index';
import { CLI_PERMISSION_ROWS, connectedPermissionCommand } from './cli-permission-events';
import { planConnect } from '../../src/bridge/connect-settings';

describe('each CLI\'s permission event (the host test\'s and bench\'s rows)', () => {
  it('one row per adapter', () => {
    assert.deepEqual(CLI_PERMISSION_ROWS.map((r) => r.cli), [...CLIS]);
  });
  for (const row of CLI_PERMISSION_ROWS) {
    it(`${row.cli}: read as a permission for the command; Approve printed as the row expects; Connect's command found`, () => {
      const a = adapterOf(row.cli)!;
      assert.equal(a.name, row.name);
      assert.equal(a.permissionEvent, row.permissionEvent);
      const e = a.parse(row.event({ sessionId: 's-1', cwd: '/home/ada/shop', command: 'npm test' }));
      assert.equal(e.kind, 'permission');
      assert.equal(e.sessionId, 's-1');
      assert.equal(e.cwd, '/home/ada/shop');
      assert.equal(e.tool, row.shellTool);
      assert.equal((e.input as { command?: string }).command, 'npm test');
      assert.match(a.print({ behavior: 'allow' }), row.allowPrinted);
      const plan = planConnect(undefined, row.cli, '/bin/hook');
      assert.ok(plan.ok);
      assert.match(connectedPermissionCommand(row, plan.after) ?? '', /^\/bin\/hook --wait \d+$/);
    });
  }
});
