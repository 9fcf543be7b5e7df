// The OAuth endpoints the extension uses: device authorization, device token polling and
// refresh. Every token request carries a DPoP proof with the latest nonce; a refusal asking for
// a (new) nonce is repeated once with it (RFC 9449 section 8).
import { MalformedResponseError, NetworkError, OAuthRefusalError } from '../api/errors';
import type { NonceStore } from '../api/client';
import type { HttpResponse, HttpTransport } from '../api/http';
import type { Clock } from '../api/runtime';
import type { ServerTime } from '../api/server-time';
import { DeviceAuthorization, OAuthError, TokenResponse } from '../api/schemas';
import type * as z from 'zod/mini';
import type { DpopKey } from './dpop';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface OAuthOptions {
  baseUrl: string;
  clientId: string;
  transport: HttpTransport;
  nonces: NonceStore;
  /** Proof and attestation times; a ServerTime is corrected when the service refuses a proof. */
  clock: Clock | ServerTime;
  userAgent: string;
  /** Counts token-endpoint requests too (the per-person limit sees every call). */
  onRequest?: (info: { method: string; path: string; waits: boolean }) => void;
}

export class OAuthEndpoints {
  constructor(private readonly o: OAuthOptions) {}

  /** The origin refresh tokens are sent to (the token set checks it is theirs). */
  get origin(): string {
    return new URL(this.o.baseUrl).origin;
  }

  startDevice(form: { scope: string; machine: string; machineAttestation: string }): Promise<DeviceAuthorization> {
    return this.post('/oauth/device', {
      client_id: this.o.clientId,
      scope: form.scope,
      resource: `${this.o.baseUrl}/v1`,
      machine: form.machine,
      machine_attestation: form.machineAttestation,
    }, DeviceAuthorization, undefined);
  }

  pollDevice(deviceCode: string, key: DpopKey): Promise<TokenResponse> {
    return this.post('/oauth/token', {
      grant_type: DEVICE_GRANT,
      device_code: deviceCode,
      client_id: this.o.clientId,
    }, TokenResponse, key);
  }

  refresh(refreshToken: string, key: DpopKey): Promise<TokenResponse> {
    return this.post('/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: this.o.clientId,
    }, TokenResponse, key);
  }

  private async post<S extends z.ZodMiniType>(path: string, form: Record<string, string>, schema: S, key: DpopKey | undefined): Promise<z.infer<S>> {
    const url = this.o.baseUrl + path;
    let nonceRetried = false;
    let timeRetried = false;
    let undoTime: (() => void) | undefined;
    for (;;) {
      const headers: Record<string, string> = {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        'user-agent': this.o.userAgent,
      };
      if (key) {
        headers.dpop = await key.proof({ htm: 'POST', url, nonce: this.o.nonces.get(url), iat: Math.floor(this.o.clock.now() / 1000) });
      }
      this.o.onRequest?.({ method: 'POST', path, waits: false });
      const res = await this.o.transport.send({ method: 'POST', url, headers, body: new URLSearchParams(form).toString() });
      this.o.nonces.remember(url, res);
      // OAuth answers its refusals with 400 (401 for the client): any other status came from
      // something in between (a gateway's 502 may carry an `error` too) and ends nothing.
      const ok = res.status >= 200 && res.status < 300;
      if (!ok && res.status !== 400 && res.status !== 401) throw new NetworkError(url, `${res.status} from between here and the service`);
      const body = parseJson(res, url);
      if (res.status >= 200 && res.status < 300) {
        const r = schema.safeParse(body);
        if (!r.success) throw new MalformedResponseError('schema', res.status, url, r.error.issues.map((i) => i.path.join('.')).join(', '));
        return r.data;
      }
      const err = OAuthError.safeParse(body);
      if (!err.success) throw new MalformedResponseError('schema', res.status, url, 'refusal without an OAuth error');
      if (err.data.error === 'use_dpop_nonce' && key && !nonceRetried && res.headers['dpop-nonce']) {
        nonceRetried = true;
        continue;
      }
      if (err.data.error === 'invalid_dpop_proof' && key && !timeRetried && 'correctFrom' in this.o.clock) {
        timeRetried = true;
        undoTime = this.o.clock.correctFrom(res.headers['date']);
        if (undoTime) continue;
      }
      if (err.data.error === 'invalid_dpop_proof') undoTime?.();
      throw new OAuthRefusalError(res.status, err.data.error, err.data.error_description, url, undefined, res.headers['date']);
    }
  }
}

function parseJson(res: HttpResponse, url: string): unknown {
  const type = res.headers['content-type'] ?? '';
  if (!/json/i.test(type)) throw new MalformedResponseError('content-type', res.status, url, type || 'no content type');
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    throw new MalformedResponseError('json', res.status, url);
  }
}
