import { connectionFailureOf } from './connection-errors.js';
import { badRequest, conflict, DomainError, serviceUnavailable } from '../kernel/errors.js';

/*
 * The one place where what the database refused becomes a failure the caller can act on, for both
 * doors: a unique key taken (by a concurrent request, typically) is a 409 naming the field, a reference
 * to a row that does not exist (any more) is a 400 naming the field, a transaction that lost a
 * deadlock or a serialization check is a 409, and a database that cannot be reached or will not give
 * this server a session (db/connection-errors.ts) is a 503 with Retry-After.
 */

/**
 * The caller-facing message of a unique key being taken, by constraint name, where it says more than
 * the generic one. Services that check first throw `alreadyTaken` with the same constraint, so a
 * request that loses a race reads what it would have read a moment later. `value` is the key's last
 * column's value.
 */
const TAKEN_MESSAGES = {
  organization_hostname_unique: (hostname) => `hostname: "${hostname}" is already used by another organization`,
  app_user_email_unique: (email) => `email: a user with e-mail ${email} already exists`,
  openapi_spec_organization_id_slug_unique: (slug) => `slug: the organization already has a specification "${slug}"`,
  site_section_site_id_path_unique: (path) => `path: "${path}" is already used by another section of the site`,
} satisfies Record<string, (value: string) => string>;

export type TakenConstraint = keyof typeof TAKEN_MESSAGES;

/** The 409 of a unique key already taken: what a check before writing throws, and what a lost race answers. */
export function alreadyTaken(constraint: TakenConstraint, value: string): DomainError {
  return conflict(TAKEN_MESSAGES[constraint](value));
}

type PgError = { code?: unknown; constraint?: unknown; detail?: unknown };

/** The columns and values of `Key (a, b)=(x, y) …` in a constraint error's detail (values split only when unambiguous). */
function keyOf(detail: unknown): { columns: string[]; values: string[] | null } | null {
  const match = typeof detail === 'string' ? /^Key \((.+?)\)=\((.*)\) (?:already exists|is not present in table)/.exec(detail) : null;
  if (!match) return null;
  const columns = match[1].split(', ').map((column) => column.replace(/^"|"$/g, ''));
  const values = match[2].split(', ');
  return { columns, values: values.length === columns.length ? values : null };
}

/**
 * The property a column stores, by the naming convention of the entities (camelCase properties in
 * snake_case columns, relations in `<property>_id`): `default_team_id` → `defaultTeam`.
 */
const fieldOf = (column: string) => column.replace(/_id$/, '').replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function uniqueViolation(error: PgError): DomainError {
  const key = keyOf(error.detail);
  // Keys are scoped by their first columns (organization, site, space): the last one is the caller's.
  const column = key?.columns.at(-1);
  const value = key?.values?.at(-1);
  const message =
    typeof error.constraint === 'string' && Object.hasOwn(TAKEN_MESSAGES, error.constraint) ? TAKEN_MESSAGES[error.constraint as TakenConstraint] : undefined;
  if (message && value !== undefined) return conflict(message(value));
  if (!column) return conflict('Conflicts with a concurrent change; retry');
  return conflict(value === undefined ? `${fieldOf(column)}: already taken` : `${fieldOf(column)}: "${value}" is already taken`);
}

function foreignKeyViolation(error: PgError): DomainError {
  // Deleting a row that others still refer to (the references that do not cascade).
  if (typeof error.detail === 'string' && / is still referenced from table /.test(error.detail))
    return conflict('Still in use elsewhere; remove what uses it first');
  const key = keyOf(error.detail);
  const column = key?.columns.at(-1);
  const value = key?.values?.at(-1);
  if (!column) return badRequest('Refers to something that does not exist');
  return badRequest(value === undefined ? `${fieldOf(column)}: does not exist` : `${fieldOf(column)}: "${value}" does not exist`);
}

/**
 * The domain error a database failure means for the caller, or undefined when it is not one of those
 * (then it is an internal error). Recognised by SQLSTATE, so errors converted by MikroORM and raw pg
 * errors (plain-row reads) are read alike.
 */
export function domainErrorOf(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error;
  if (connectionFailureOf(error)) return serviceUnavailable(error);
  if (typeof error !== 'object' || error === null) return undefined;
  switch ((error as PgError).code) {
    case '23505':
      return uniqueViolation(error);
    case '23503':
      return foreignKeyViolation(error);
    case '40001':
    case '40P01':
      // serialization_failure, deadlock_detected: the transaction was rolled back and changed nothing.
      return conflict('Conflicts with a concurrent change; retry');
    default:
      return undefined;
  }
}
