import type { Context } from './context.js';
import type { PageArgs } from './pagination.js';

/** Arguments of a root field that names a resource by its id. */
export type Id = { id: string };

/** Arguments of a root field that names an organization. */
export type OrganizationId = { organizationId: string };

/** Arguments of a mutation with an input, which the service validates. */
export type WithInput = { input: unknown };

/** The answer of a mutation typed `Boolean!` that has nothing else to say (a delete): true once `work` has succeeded. */
export async function succeeded(work: Promise<unknown>): Promise<true> {
  await work;
  return true;
}

/** A root field listing an organization's resources a page at a time: `list(ctx, organizationId, page)`. */
export const listInOrganization =
  <Answer>(list: (ctx: Context, organizationId: string, page: PageArgs) => Answer) =>
  (_: unknown, { organizationId, ...page }: OrganizationId & PageArgs, ctx: Context) =>
    list(ctx, organizationId, page);

/**
 * A root field listing an organization's resources a page at a time, narrowed by filters (its arguments
 * besides the organization and the page): `list(ctx, organizationId, filters, page)`.
 */
export const listFilteredInOrganization =
  <Filters, Answer>(list: (ctx: Context, organizationId: string, filters: Filters, page: PageArgs) => Answer) =>
  (_: unknown, { organizationId, page, limit, ...filters }: OrganizationId & PageArgs & Filters, ctx: Context) =>
    list(ctx, organizationId, filters as Filters, { page, limit });

/** A mutation creating a resource of an organization from its input: `create(ctx, organizationId, input)`. */
export const createInOrganization =
  <Answer>(create: (ctx: Context, organizationId: string, input: unknown) => Answer) =>
  (_: unknown, { organizationId, input }: OrganizationId & WithInput, ctx: Context) =>
    create(ctx, organizationId, input);

/** Arguments naming an organization and one of its resources by the argument `Key` (`id`, `teamId`, `specSlug`...). */
export type OrganizationItem<Key extends string> = OrganizationId & Record<Key, string>;

/** A root field on one resource of an organization, named by the argument `key`: `work(ctx, organizationId, item)`. */
export const onOrganizationItem =
  <Key extends string, Answer>(key: Key, work: (ctx: Context, organizationId: string, item: string) => Answer) =>
  (_: unknown, args: OrganizationItem<Key>, ctx: Context) =>
    work(ctx, args.organizationId, args[key]);

/** A mutation changing a resource named by its id from its input: `update(ctx, id, input)`. */
export const updateById =
  <Answer>(update: (ctx: Context, id: string, input: unknown) => Answer) =>
  (_: unknown, { id, input }: Id & WithInput, ctx: Context) =>
    update(ctx, id, input);

/** The field extension that marks a resolver reading before its guard (readBeforeGuard). */
const READS_BEFORE_GUARD = 'readsBeforeGuard';

/**
 * Marks a root query field's resolver as one that reads before its guard (graphql/schema.ts): it reads
 * what the guard judges along with the answer (a site's row with its whole answer, one statement
 * instead of two), and the guard then decides on what was read: nothing read leaves unless the guard
 * lets it, and an error of the read is reported only then. The resolver must only read, and should
 * keep the database from writing what the guard would refuse (db/answers-by-key.ts `mayRead`).
 * A field's extensions carry the mark (graphql-tools binds resolver functions, which loses their identity).
 */
export function readBeforeGuard<F>(resolve: F): { resolve: F } {
  return { resolve, ...{ extensions: { [READS_BEFORE_GUARD]: true } } };
}

/** True when the field's resolver reads before its guard (readBeforeGuard). */
export const readsBeforeGuard = (field: { extensions?: Readonly<Record<string, unknown>> | null }): boolean => field.extensions?.[READS_BEFORE_GUARD] === true;
