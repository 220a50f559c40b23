import { z } from 'zod';
import { badRequest } from './errors.js';

/** Parses mutation input with a zod schema; the first problem becomes a 400 naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  throw badRequest(field ? `${field}: ${issue.message}` : issue.message);
}

/** A string with the contract's length bounds and readable messages. */
export function text(bounds: { min?: number; max: number }) {
  let schema = z.string({ error: 'must be a string' });
  if (bounds.min !== undefined) {
    schema = schema.min(bounds.min, { error: `must be at least ${bounds.min} character${bounds.min === 1 ? '' : 's'}` });
  }
  return schema.max(bounds.max, { error: `must be at most ${bounds.max} characters` });
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of: ${values.join(', ')}` });
}
