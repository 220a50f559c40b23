import type { Context } from '../../graphql/context.js';
import { badRequest, forbidden } from '../common/errors.js';
import type { CollectionRow } from './entities.js';

/** A collection of `organizationId` named in a request body (visible to the viewer), or a 400 naming the field. */
export async function collectionInOrganization(ctx: Context, id: string, organizationId: string, field: string): Promise<CollectionRow> {
  const collection = await ctx.policy.visibleCollection(id);
  if (!collection || collection.organization !== organizationId) throw badRequest(`${field}: no collection "${id}" in this organization`);
  return collection;
}

/** Creating or moving content into a place needs the create role there (collection, or organization at the top level). */
export async function assertCanCreateIn(ctx: Context, organizationId: string, parentId: string | null) {
  if (!(await ctx.policy.canCreateIn(organizationId, parentId))) {
    throw forbidden(
      parentId
        ? 'Creating content in this collection needs the create role on it'
        : 'Creating content at the top level needs the create role in the organization',
    );
  }
}
