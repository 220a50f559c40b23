import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { join } from 'sql-template-tag';
import { Collection } from '../collections/index.js';
import { Organization } from '../organizations/index.js';
import { Site } from '../sites/index.js';
import { Space } from '../spaces/index.js';
import { Team } from '../teams/index.js';
import { executeReturning, tableOf } from '../../db/statements.js';
import { recordEvent } from '../../events/record.js';
import type { RefusedOutcome } from '../../events/types.js';
import type { Context } from '../../kernel/context.js';
import { ERROR_STATUS } from '../../kernel/errors.js';
import { storable, unstorable } from '../../kernel/nul.js';

/**
 * Refused mutations in the audit log: a mutation an authenticated caller was not allowed to make
 * (`denied`) or whose input or state did not let it happen (`rejected`). Failures of the server
 * (500, 503) and rate limits are not the caller's doing and are not listed.
 */
const OUTCOME_OF: Partial<Record<number, RefusedOutcome>> = {
  [ERROR_STATUS.UNAUTHENTICATED]: 'denied',
  [ERROR_STATUS.FORBIDDEN]: 'denied',
  [ERROR_STATUS.BAD_REQUEST]: 'rejected',
  [ERROR_STATUS.NOT_FOUND]: 'rejected',
  [ERROR_STATUS.CONFLICT]: 'rejected',
  [ERROR_STATUS.PAYLOAD_TOO_LARGE]: 'rejected',
};

/** The arguments that can name the organization a refused mutation aimed at, and the table that knows it. */
const OWNED_BY_ORGANIZATION = [
  ['spaceId', Space],
  ['collectionId', Collection],
  ['siteId', Site],
  ['teamId', Team],
] as const;

/** An argument kept as a target id: short, and storable (a hostile value is not worth storing). */
const isIdLike = (value: string) => value.length > 0 && value.length <= 128 && unstorable(value) === null;

/** The argument name a guard's target goes by in the audit log's target (GraphQL's guards may call it `id`). */
const TARGET_NAME_OF_GUARD: Readonly<Record<string, string>> = {
  ORGANIZATION: 'organizationId',
  ORGANIZATION_OR_SUBDOMAIN: 'organizationId',
  COLLECTION: 'collectionId',
  SPACE: 'spaceId',
  SITE: 'siteId',
  TEAM: 'teamId',
};

/**
 * The ids a refused mutation names: its arguments that end in `Id`, and what its guard checks (an
 * `id` argument is named after the guard's target).
 */
function targetOf(refusal: Refusal): Record<string, string> {
  const target: Record<string, string> = {};
  for (const [name, value] of Object.entries(refusal.args)) if (name.endsWith('Id') && typeof value === 'string' && isIdLike(value)) target[name] = value;
  const named = refusal.guarded && TARGET_NAME_OF_GUARD[refusal.guarded.on];
  if (named && typeof refusal.guarded!.id === 'string' && isIdLike(refusal.guarded!.id)) target[named] ??= refusal.guarded!.id;
  return target;
}

export type Refusal = {
  /** REST: the contract's operation id; GraphQL: the root field that failed. */
  operation: string;
  /** The HTTP status the refusal answers (both doors map errors to it alike: src/http/door-errors.ts). */
  status: number;
  /** What the caller was told. */
  message: string;
  /** The operation's arguments (REST: its path parameters): the ids in them are the refusal's target. */
  args: Record<string, unknown>;
  /** What the operation's guard checks (src/graphql/schema.ts: its target kind, and the value of its argument). */
  guarded?: { on: string; id: unknown };
};

/**
 * The organization a refused mutation named: its `organizationId` argument, or the organization of the
 * space, collection, site or team it named; null when none of them exists (those rows are for the
 * instance's administrators only: no organization's log lists them).
 */
async function organizationNamed(em: EntityManager, target: Record<string, string>): Promise<string | null> {
  const lookups = [sql`(select "id" from ${tableOf(em, Organization)} where "id" = ${target.organizationId ?? null})`];
  for (const [argument, entity] of OWNED_BY_ORGANIZATION) {
    lookups.push(sql`(select "organization_id" from ${tableOf(em, entity)} where "id" = ${target[argument] ?? null})`);
  }
  const [row] = await executeReturning<{ organizationId: string | null }>(em, sql`select coalesce(${join(lookups, ', ')}) as "organizationId"`);
  return row?.organizationId ?? null;
}

/**
 * Records a mutation that the request of `ctx` was refused, as a `mutation.refused` event of its own,
 * written on a fresh EntityManager (outside the transaction that failed and rolled back). Only
 * authenticated callers' refusals are kept (an anonymous 401 names nobody). Never fails the request:
 * a failure to record is logged.
 */
export async function recordRefusal(ctx: Context, refusal: Refusal): Promise<void> {
  const outcome = OUTCOME_OF[refusal.status];
  if (!ctx.viewer || !outcome) return;
  try {
    // An event manager of its own: the record of a refusal is no write of the request (it does not mark
    // an idempotency key as carried out, db/commit-marks.ts, nor make the request's context forget).
    const em = ctx.em.fork({ clear: true, freshEventManager: true });
    const target = targetOf(refusal);
    // Named by the operation refused (a GraphQL request's other root fields may have succeeded).
    const event = recordEvent({ ...ctx, origin: { ...ctx.origin, operation: refusal.operation } }, em, {
      type: 'mutation.refused',
      organizationId: await organizationNamed(em, target),
      target,
      // The message may quote what the caller sent: the record must be written whatever that was.
      payload: { status: refusal.status, message: storable(refusal.message) },
    });
    em.assign(event, { outcome });
    await em.flush();
  } catch (err) {
    ctx.logger.error({ err, operation: refusal.operation }, 'could not record a refused mutation in the audit log');
  }
}
