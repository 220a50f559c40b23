import { LockMode, type EntityName } from '@mikro-orm/postgresql';
import type { Context } from '../kernel/context.js';
import { preconditionFailed } from '../kernel/errors.js';
import { ifMatchHolds, parseEtagCondition } from '../kernel/etags.js';
import { contextFor } from './request-context.js';

/** A resource as a conditional write names it: its GET (the representation its ETag hashes) and its row. */
export type ConditionalResource = {
  /** The REST GET operation whose answer is the resource's representation, and that operation's variables (given the locked row, when it tells them). */
  representation: string;
  variables: Record<string, unknown> | ((row: Record<string, unknown>) => Record<string, unknown>);
  /** The entity and id of the resource's row, locked before its ETag is read: its writers queue there. */
  row: readonly [entity: EntityName, id: string];
};

/** The same request's context on `tx`: its reads (the ETag's and the write's) see what `tx` does, and wait for nothing outside it. */
const contextIn = (ctx: Context, tx: Context['em']): Context => contextFor(ctx, tx, ctx.viewer, ctx.logger, ctx.origin);

/**
 * Runs `write` as it is when `ifMatch` is absent. With it, in one transaction: locks the resource's
 * row (SELECT … FOR UPDATE, so writers of the resource, conditional or not, go one at a time from
 * here), reads the resource's current ETag (its GET's answer for this viewer, read in the transaction)
 * and runs `write` there only if `ifMatch` holds, else answers 412 having written nothing. Of writers
 * racing with one ETag, the first to lock writes; the others then read the new ETag, and fail.
 */
export async function writeIfMatch<T>(
  ctx: Context,
  ifMatch: string | null | undefined,
  resource: ConditionalResource,
  write: (ctx: Context) => Promise<T>,
): Promise<T> {
  if (ifMatch === null || ifMatch === undefined) return write(ctx);
  const condition = parseEtagCondition('ifMatch', ifMatch);
  const { representations } = ctx;
  if (!representations) throw new Error('ifMatch is only served by the doors (their contexts read representations)');
  return ctx.em.transactional(async (tx) => {
    const [entity, id] = resource.row;
    const row = (await tx.findOne(entity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE })) as Record<string, unknown> | null;
    const inTransaction = contextIn(ctx, tx);
    const { representation, variables } = resource;
    const current = row && (await representations.etagOf(inTransaction, representation, typeof variables === 'function' ? variables(row) : variables));
    if (!ifMatchHolds(condition, current))
      throw preconditionFailed('Precondition failed: the resource has changed since the ETag that If-Match names (read it again)');
    return write(inTransaction);
  });
}

/** The ETag of a resource for the GraphQL `etag` field: its GET's, for the same viewer. */
export async function etagOf(ctx: Context, representation: string, variables: Record<string, unknown>): Promise<string> {
  const tag = await ctx.representations?.etagOf(ctx, representation, variables);
  if (!tag) throw new Error(`${representation}: no representation to tag (not served by a door, or not found)`);
  return tag;
}
