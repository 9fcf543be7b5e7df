// Device sign-in (RFC 8628 with the computer attestation of DESIGN): start, show the code,
// poll at `interval` (slow_down adds 5 s), stop on deny, expiry or cancel.
import { NetworkError, OAuthRefusalError } from '../api/errors';
import { AbortedError, backoffDelay, sleep } from '../api/runtime';
import type { Clock, Logger, Timers } from '../api/runtime';
import type { ServerTime } from '../api/server-time';
import type { TokenResponse } from '../api/schemas';
import type { DpopKey } from './dpop';
import { DeviceFlowError, NotSetUpError } from './errors';
import { createAttestation, readMachineIdentity } from './machine';
import type { OAuthEndpoints } from './oauth';

export const SLOW_DOWN_STEP_SECONDS = 5;
/** RFC 8628 section 3.2: a device answer without `interval` means polling every 5 s. */
export const DEFAULT_POLL_INTERVAL_SECONDS = 5;

export type DeviceFlowProgress =
  /** `verificationUriComplete` is optional (RFC 8628): without it the person types the code at `verificationUri`. */
  | { step: 'code'; userCode: string; verificationUri: string; verificationUriComplete?: string; expiresAt: number }
  | { step: 'waiting'; intervalSeconds: number }
  | { step: 'approved' };

export interface DeviceFlowOptions {
  baseUrl: string;
  endpoints: OAuthEndpoints;
  key: DpopKey;
  machineFile: string;
  scopes: readonly string[];
  /** A ServerTime lets a refused attestation (this computer's clock off) be made again once. */
  clock: Clock | ServerTime;
  timers: Timers;
  logger: Logger;
  onProgress?: (p: DeviceFlowProgress) => void;
  signal?: AbortSignal;
}

export async function runDeviceFlow(o: DeviceFlowOptions): Promise<TokenResponse> {
  const identity = await readMachineIdentity(o.machineFile);
  const attest = () => createAttestation(identity, {
    baseUrl: o.baseUrl,
    jkt: o.key.thumbprint,
    nowSeconds: Math.floor(o.clock.now() / 1000),
    file: o.machineFile,
  });
  const startWith = async () =>
    o.endpoints.startDevice({ scope: o.scopes.join(' '), machine: identity.name, machineAttestation: await attest() });
  let start;
  try {
    try {
      start = await startWith();
    } catch (e) {
      // An attestation refused for its time: this computer's clock is off; once more on the service's.
      const timeRefusal = e instanceof OAuthRefusalError && e.error === 'invalid_request' && /\b(iat|exp|expired|future)\b/.test(e.description ?? '');
      const undo = timeRefusal && 'correctFrom' in o.clock ? o.clock.correctFrom(e.serverDate) : undefined;
      if (!undo) throw e;
      try {
        start = await startWith();
      } catch (again) {
        undo();
        throw again;
      }
    }
  } catch (e) {
    // The device endpoint refuses an unknown computer (or a bad attestation) with invalid_request.
    if (e instanceof OAuthRefusalError && e.error === 'invalid_request') {
      throw new NotSetUpError('rejected', o.machineFile, e.description ?? 'the service refused this computer');
    }
    throw e;
  }
  const expiresAt = o.clock.now() + start.expires_in * 1000;
  o.onProgress?.({
    step: 'code',
    userCode: start.user_code,
    verificationUri: start.verification_uri,
    ...(start.verification_uri_complete !== undefined ? { verificationUriComplete: start.verification_uri_complete } : {}),
    expiresAt,
  });
  let interval = Math.max(1, start.interval ?? DEFAULT_POLL_INTERVAL_SECONDS);
  let networkFailures = 0;
  for (;;) {
    o.onProgress?.({ step: 'waiting', intervalSeconds: interval });
    try {
      await sleep(o.timers, interval * 1000, o.signal);
    } catch (e) {
      if (e instanceof AbortedError) throw new DeviceFlowError('cancelled');
      throw e;
    }
    if (o.clock.now() >= expiresAt) throw new DeviceFlowError('expired_token');
    try {
      const tokens = await o.endpoints.pollDevice(start.device_code, o.key);
      if (o.signal?.aborted) throw new DeviceFlowError('cancelled');
      o.onProgress?.({ step: 'approved' });
      return tokens;
    } catch (e) {
      if (e instanceof DeviceFlowError) throw e;
      if (e instanceof OAuthRefusalError) {
        switch (e.error) {
          case 'authorization_pending':
            continue;
          case 'slow_down':
            interval += SLOW_DOWN_STEP_SECONDS;
            o.logger.info('sign-in polling slowed down', { intervalSeconds: interval });
            continue;
          case 'access_denied':
            throw new DeviceFlowError('access_denied', e.description);
          case 'expired_token':
            throw new DeviceFlowError('expired_token', e.description);
        }
        throw e;
      }
      if (e instanceof NetworkError) {
        // Offline for a moment: keep polling until the code expires.
        await sleep(o.timers, backoffDelay(networkFailures++, { maxMs: 30_000 }), o.signal).catch((err: unknown) => {
          throw err instanceof AbortedError ? new DeviceFlowError('cancelled') : err;
        });
        continue;
      }
      throw e;
    }
  }
}
