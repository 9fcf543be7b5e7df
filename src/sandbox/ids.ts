// Identifiers of the sandbox's resources: `prefix_` and url-safe letters, digits and `-`,
// so they match the spec's patterns (`^req_[A-Za-z0-9-]+$` ...).
import { randomBytes } from 'node:crypto';

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/_/g, '-')}`;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
