// jose 6 is an ES module; this CommonJS build loads it with a dynamic import, once.
export type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
export type JWK = import('jose', { with: { 'resolution-mode': 'import' } }).JWK;

let loading: Promise<Jose> | undefined;
export function jose(): Promise<Jose> {
  loading ??= import('jose');
  return loading;
}
