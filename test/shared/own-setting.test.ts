// A folder's settings cannot widen the sign-in or silence blocking cards (#37).
import * as assert from 'node:assert/strict';
import { NOTIFY_ORDER, ownValue, SCOPE_ORDER } from '../../src/shared/own-setting';

const scope = (i: Parameters<typeof ownValue>[0]) => ownValue(i, SCOPE_ORDER, 'workspace');
const notify = (i: Parameters<typeof ownValue>[0]) => ownValue(i, NOTIFY_ORDER, 'blocking');

describe('settings a folder cannot widen', () => {
  it('scope: a folder\'s "everywhere" or "machine" does not widen the person\'s own value; a narrower one applies', () => {
    assert.equal(scope({ defaultValue: 'workspace', workspaceValue: 'everywhere' }), 'workspace');
    assert.equal(scope({ defaultValue: 'workspace', workspaceFolderValue: 'machine' }), 'workspace');
    assert.equal(scope({ defaultValue: 'workspace', globalValue: 'machine', workspaceValue: 'everywhere' }), 'machine');
    assert.equal(scope({ defaultValue: 'workspace', globalValue: 'everywhere', workspaceValue: 'workspace' }), 'workspace', 'narrower: applies');
    assert.equal(scope({ defaultValue: 'workspace', globalValue: 'everywhere' }), 'everywhere', 'the person\'s own choice');
    assert.equal(scope({ defaultValue: 'workspace', globalValue: 'bogus', workspaceValue: 'bogus' }), 'workspace');
    assert.equal(scope(undefined), 'workspace');
  });

  it('notify: a folder\'s "off" does not silence blocking cards; a louder one applies', () => {
    assert.equal(notify({ defaultValue: 'blocking', workspaceValue: 'off' }), 'blocking');
    assert.equal(notify({ defaultValue: 'blocking', globalValue: 'all', workspaceFolderValue: 'off' }), 'all');
    assert.equal(notify({ defaultValue: 'blocking', globalValue: 'off' }), 'off', 'the person\'s own choice');
    assert.equal(notify({ defaultValue: 'blocking', globalValue: 'off', workspaceValue: 'blocking' }), 'blocking', 'louder: applies');
    assert.equal(notify({ defaultValue: 'blocking', workspaceValue: 'all' }), 'all');
  });
});
