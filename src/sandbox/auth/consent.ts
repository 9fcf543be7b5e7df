// The person's decision on a device sign-in (from the approval page or the control surface).
import type { Scope } from '../../api/schemas';
import { mayUse } from './apps';
import type { AuthCore } from './core';
import { normaliseUserCode } from './ids';
import type { DeviceRecord } from './store';

export type ConsentResult =
  | { ok: true; device: DeviceRecord }
  | { ok: false; code: 'not_found' | 'conflict' | 'invalid' | 'forbidden'; detail: string; field?: string };

/** The pending device sign-in for a typed code, or why there is none. */
export function findPending(core: AuthCore, userCode: string): ConsentResult {
  const device = core.store.userCodes.get(normaliseUserCode(userCode));
  if (!device) return { ok: false, code: 'not_found', detail: 'no sign-in waits with this code' };
  if (device.expiresAt <= core.now()) return { ok: false, code: 'not_found', detail: 'this code has expired: start the sign-in again' };
  if (device.state !== 'pending') return { ok: false, code: 'conflict', detail: `this sign-in was already ${device.state === 'denied' ? 'denied' : 'allowed'}` };
  return { ok: true, device };
}

export function approveDevice(core: AuthCore, userCode: string, scopes: unknown, userId: string): ConsentResult {
  const found = findPending(core, userCode);
  if (!found.ok) return found;
  const device = found.device;
  let allowed: Scope[] = device.scopes;
  if (scopes !== undefined) {
    if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string')) {
      return { ok: false, code: 'invalid', field: 'scopes', detail: 'scopes must be an array of scope strings' };
    }
    const extra = scopes.filter((s) => !device.scopes.includes(s as Scope));
    if (extra.length > 0) return { ok: false, code: 'invalid', field: 'scopes', detail: `not asked for: ${extra.join(', ')}` };
    if (scopes.length === 0) return { ok: false, code: 'invalid', field: 'scopes', detail: 'allow at least one scope, or deny' };
    allowed = device.scopes.filter((s) => scopes.includes(s));
  }
  const app = core.store.apps.get(device.appId);
  if (!app || app.removed) {
    device.state = 'denied';
    device.deniedReason = 'the app is not available';
    return { ok: false, code: 'forbidden', detail: 'this app was removed' };
  }
  if (!mayUse(app, userId)) {
    // The app is unverified and this person is neither its owner nor one of its testers.
    device.state = 'denied';
    device.deniedReason = 'this app is not verified and works only for its owner and its testers';
    return { ok: false, code: 'forbidden', detail: device.deniedReason };
  }
  device.state = 'approved';
  device.approvedScopes = allowed;
  device.userId = userId;
  return { ok: true, device };
}

export function denyDevice(core: AuthCore, userCode: string): ConsentResult {
  const found = findPending(core, userCode);
  if (!found.ok) return found;
  found.device.state = 'denied';
  found.device.deniedReason = 'the person denied the sign-in';
  return found;
}
