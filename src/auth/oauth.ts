// The OAuth endpoints the extension uses: device authorization, device token polling and
// refresh. Every token request carries a DPoP proof with the latest nonce; the nonce and clock
// repeats are sendDpopBound's (src/api/dpop-exchange.ts), as for /v1 (each keeps its own nonce).
import { isJsonType, readJson, sendDpopBound } from '../api/dpop-exchange';
import type { NonceStore } from '../api/dpop-exchange';
import { MalformedResponseError, NetworkError } from '../api/errors';
import type { HttpTransport } from '../api/http';
import type { Clock } from '../api/runtime';
import type { ServerTime } from '../api/server-time';
import { DeviceAuthorization, TokenResponse } from '../api/schemas';
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
    const clock = this.o.clock;
    const { res, refusal } = await sendDpopBound({
      method: 'POST', url, endpoint: 'token', nonces: this.o.nonces,
      serverTime: 'correctFrom' in clock ? clock : undefined,
      proof: key ? (nonce) => key.proof({ htm: 'POST', url, nonce, iat: Math.floor(clock.now() / 1000) }) : undefined,
      send: (dpop) => {
        const headers: Record<string, string> = {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          'user-agent': this.o.userAgent,
        };
        if (dpop !== undefined) headers.dpop = dpop;
        this.o.onRequest?.({ method: 'POST', path, waits: false });
        return this.o.transport.send({ method: 'POST', url, headers, body: new URLSearchParams(form).toString() });
      },
    });
    if (refusal) throw refusal;
    if (res.status >= 200 && res.status < 300) {
      const r = schema.safeParse(readJson(res, url));
      if (!r.success) throw new MalformedResponseError('schema', res.status, url, r.error.issues.map((i) => i.path.join('.')).join(', '));
      return r.data;
    }
    // OAuth answers its refusals with 400 (401 for the client) and an OAuth JSON body: anything
    // else came from something in between (a gateway's 502 may carry an `error` too) and ends nothing.
    // A gateway's 504 says it passed the request on and no answer came back: it may have arrived.
    if (res.status !== 400) throw new NetworkError(url, `${res.status} from between here and the service`, res.status === 504);
    throw new MalformedResponseError(isJsonType(res.headers['content-type']) ? 'schema' : 'content-type', res.status, url, 'refusal without an OAuth error');
  }
}
