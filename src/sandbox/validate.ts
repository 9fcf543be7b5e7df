// Small checks that collect `{field, reason}` for the `invalid` problem.
import { ProblemError } from './problems';

export type FieldError = { field: string; reason: string };

export function invalid(errors: FieldError[], detail?: string): ProblemError {
  return new ProblemError('invalid', detail ?? errors.map((e) => `${e.field}: ${e.reason}`).join('; '), { errors });
}

export const PATTERNS = {
  area: /^prj_[A-Za-z0-9-]+$/,
  assistant: /^con_[A-Za-z0-9-]+$/,
  agent: /^agt_[A-Za-z0-9-]+$/,
  machine: /^mch_[A-Za-z0-9-]+$/,
  card: /^req_[A-Za-z0-9-]+$/,
};

export const MAX_TEXT = 10_000;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A query value as a list (querystring gives a string, or an array when repeated). */
export function asList(v: unknown): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v.map(String) : [String(v)];
}

/** One query value; repeating a single-valued parameter is invalid. */
export function single(q: Record<string, unknown>, name: string, errors: FieldError[]): string | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) {
    errors.push({ field: name, reason: 'give it once' });
    return undefined;
  }
  return String(v);
}

export function intParam(
  q: Record<string, unknown>, name: string, min: number, max: number, dflt: number, errors: FieldError[],
): number {
  const raw = single(q, name, errors);
  if (raw === undefined) return dflt;
  if (!/^-?\d+$/.test(raw)) {
    errors.push({ field: name, reason: `must be an integer from ${min} to ${max}` });
    return dflt;
  }
  const n = Number(raw);
  if (n < min || n > max) {
    errors.push({ field: name, reason: `must be an integer from ${min} to ${max}` });
    return dflt;
  }
  return n;
}

/** Refuses query parameters the route does not know: a typo must not silently widen a read. */
export function onlyKnown(q: Record<string, unknown>, known: string[], errors: FieldError[]): void {
  for (const k of Object.keys(q)) if (!known.includes(k)) errors.push({ field: k, reason: 'unknown parameter' });
}
