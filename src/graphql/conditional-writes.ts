import { LockMode, type EntityName, type FilterQuery } from '@mikro-orm/postgresql';
import type { Context } from '../kernel/context.js';
import { succeeded, type OrganizationItem, type WithInput } from '../kernel/resolvers.js';
import { preconditionFailed } from '../kernel/errors.js';
import { ifMatchHolds, parseEtagCondition } from '../kernel/etags.js';
import { contextFor } from './request-context.js';

/** A resource as a conditional write names it: its GET (the representation its ETag hashes) and its row. */
export type ConditionalResource = {
  /** The REST GET operation whose answer is the resource's representation, and that operation's variables (given the locked row, when it tells them). */
  representation: string;
  variables: Record<string, unknown> | ((row: Record<string, unknown>) => Record<string, unknown>);
  /**
   * The entity and id (or the columns that name it) of the row locked before the resource's ETag is
   * read: its writers queue there. The resource's own row, or the row it belongs to when it has none
   * of its own (a site's adaptive schema locks the site).
   */
  row: readonly [entity: EntityName, key: string | Record<string, unknown>];
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
    const [entity, key] = resource.row;
    const where = (typeof key === 'string' ? { id: key } : key) as FilterQuery<object>;
    const row = (await tx.findOne(entity, where, { lockMode: LockMode.PESSIMISTIC_WRITE })) as Record<string, unknown> | null;
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

/** The ETag of a resource for the GraphQL `etag` field, named as its conditional writes name it. */
export const etagOfResource = (ctx: Context, { representation, variables }: ConditionalResource & { variables: Record<string, unknown> }) =>
  etagOf(ctx, representation, variables);

/** The ETag of a resource the viewer may see elsewhere without being allowed its GET: null then (a user seen as a comment's author). */
export const etagIfVisible = async (ctx: Context, representation: string, variables: Record<string, unknown>): Promise<string | null> =>
  (await ctx.representations?.etagOf(ctx, representation, variables)) ?? null;

/** Arguments of a mutation that takes an `If-Match` condition. */
export type IfMatch = { ifMatch?: string | null };
/** A resource of an organization as conditional writes name it, given the organization and the item's key. */
export type OrganizationItemResource = (organizationId: string, item: string) => ConditionalResource & { variables: Record<string, unknown> };

/**
 * A resource of an organization as conditional writes name it: its GET `representation` takes the
 * organization and the item as `{organizationId, [variable]: item}`; its row is `entity`'s with the
 * item as id, or as `rowKey` names it (a member's organization and user, a specification's slug).
 */
export const organizationItemResource =
  (
    representation: string,
    variable: string,
    entity: EntityName,
    rowKey: (organizationId: string, item: string) => string | Record<string, unknown> = (_, item) => item,
  ): OrganizationItemResource =>
  (organizationId, item) => ({ representation, variables: { organizationId, [variable]: item }, row: [entity, rowKey(organizationId, item)] });

/** A mutation changing one resource of an organization, named by `key`, from its input, when `ifMatch` holds (see writeIfMatch). */
export const updateOrganizationItemIfMatch =
  <Key extends string, Answer>(
    key: Key,
    resourceOf: OrganizationItemResource,
    update: (ctx: Context, organizationId: string, item: string, input: unknown) => Promise<Answer>,
  ) =>
  (_: unknown, args: OrganizationItem<Key> & WithInput & IfMatch, ctx: Context) =>
    writeIfMatch(ctx, args.ifMatch, resourceOf(args.organizationId, args[key]), (ctx) => update(ctx, args.organizationId, args[key], args.input));

/** A mutation deleting one resource of an organization, named by `key`, when `ifMatch` holds: true once `remove` has succeeded. */
export const deleteOrganizationItemIfMatch =
  <Key extends string>(key: Key, resourceOf: OrganizationItemResource, remove: (ctx: Context, organizationId: string, item: string) => Promise<unknown>) =>
  (_: unknown, args: OrganizationItem<Key> & IfMatch, ctx: Context) =>
    writeIfMatch(ctx, args.ifMatch, resourceOf(args.organizationId, args[key]), (ctx) => succeeded(remove(ctx, args.organizationId, args[key])));
