import type { Context } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import type { CollectionRow } from './entities.js';

/** A collection of `organizationId` named in a request body (visible to the viewer), or a 400 naming the field. */
export async function collectionInOrganization(ctx: Context, id: string, organizationId: string, field: string): Promise<CollectionRow> {
  const collection = await ctx.policy.visibleCollection(id);
  if (!collection || collection.organization !== organizationId) throw badRequest(`${field}: no collection "${id}" in this organization`);
  return collection;
}
