// The small builders of OpenAPI schema objects, shared by openapi.ts and the route table.
export type Schema = Record<string, unknown>;
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
export const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
export const bool: Schema = { type: 'boolean' };
export const dateTime = str({ format: 'date-time' });
export const obj = (properties: Record<string, Schema>, required: string[] = [], extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  ...extra,
});
/** A string that may take values added later (clients must accept unknown ones). */
export const openEnum = (known: readonly string[], description: string): Schema => ({
  type: 'string',
  description: `${description} Known values: ${known.join(', ')}. Later versions may add values.`,
  examples: [...known],
});
export const pattern = (prefix: string) => str({ pattern: `^${prefix}_[A-Za-z0-9-]+$` });

export function repeated(name: string, items: Schema, max: number, description: string): Schema {
  return { name, in: 'query', style: 'form', explode: true, description, schema: { type: 'array', items, minItems: 1, maxItems: max } };
}
