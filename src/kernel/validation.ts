import { z } from 'zod';
import { badRequest } from './errors.js';

/**
 * Null where a schema takes none (a field declared `.optional()`, not `.nullable()`) is refused as
 * null, not taken for an absent field: the message unless the schema gives its own.
 */
const refuseNull: z.core.$ZodErrorMap = (issue) =>
  issue.input === null && (issue.code === 'invalid_type' || issue.code === 'invalid_value') ? 'must not be null' : undefined;

/**
 * Parses mutation input with a zod schema; the first problem becomes a 400 naming the field. A field
 * that null removes or means something for is `.nullable()`; one where only absence is meant is
 * `.optional()`, and null for it is a 400 (`title: must not be null`).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input, { error: refuseNull });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
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

/** The contract's position object of a move: a sibling to go just `before` and/or `after` (neither: the end). */
export function movePosition<P extends z.ZodType>(pointer: P) {
  return z.object({ before: pointer.optional(), after: pointer.optional() });
}

/**
 * Bounds of root field arguments that a service checks by hand, by `field.argument` (JSON Schema
 * keywords): the REST reference shows them. Paged lists' `limit` needs none (pageSize bounds them all).
 */
export const describedArguments = new Map<string, Record<string, unknown>>();

export function describeArgument(field: string, argument: string, bounds: Record<string, unknown>): void {
  describedArguments.set(`${field}.${argument}`, bounds);
}
