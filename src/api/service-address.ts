// The service address must be https:, except for this computer's own loopback (the sandbox):
// tokens and proofs sent over plain http to another host can be read on the way.
import { ClientError } from './errors';

export class InsecureAddressError extends ClientError {
  readonly kind = 'insecure-address';
  constructor(readonly address: string, reason: string) {
    super(`The service address ${address} ${reason}. Use an https:// address (http:// only for localhost, 127.0.0.0/8 or [::1]).`);
    this.name = 'InsecureAddressError';
  }
}

/** 127.0.0.0/8, localhost or [::1] (a WHATWG URL's hostname: IPv4 forms are already normalised). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost') return true;
  if (h === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Throws InsecureAddressError unless `address` is https:, or http: to a loopback host. */
export function checkServiceAddress(address: string): void {
  let u: URL;
  try {
    u = new URL(address);
  } catch {
    throw new InsecureAddressError(address, 'is not a valid address');
  }
  if (u.protocol === 'https:') return;
  if (u.protocol !== 'http:') throw new InsecureAddressError(address, `uses ${u.protocol}, which is not supported`);
  if (!isLoopbackHost(u.hostname)) throw new InsecureAddressError(address, 'uses http:, which sends the sign-in unencrypted to another computer');
}
