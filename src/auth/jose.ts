// jose 6 is an ES module; this CommonJS build loads it with a dynamic import, once.
import type * as JoseModule from 'jose' with { 'resolution-mode': 'import' };
import type { JWK as JoseJWK } from 'jose' with { 'resolution-mode': 'import' };

export type Jose = typeof JoseModule;
export type JWK = JoseJWK;

let loading: Promise<Jose> | undefined;
export function jose(): Promise<Jose> {
  loading ??= import('jose');
  return loading;
}
