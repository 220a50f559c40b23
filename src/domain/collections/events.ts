import type { CollectionRow } from './entities.js';

/** The payloads of collection events: the collection as the contract names its fields, related resources as ids. */

export const collectionPayload = (collection: CollectionRow) => ({
  object: 'collection',
  id: collection.id,
  title: collection.title,
  description: collection.description,
  organization: collection.organization,
  parent: collection.parent ?? null,
  defaultLevel: collection.defaultLevel,
  createdAt: collection.createdAt.toISOString(),
  updatedAt: collection.updatedAt.toISOString(),
});

export const collectionTarget = (collection: CollectionRow) => ({ collectionId: collection.id });

/** Where a collection or space is: its organization, parent collection and position among its siblings (a move's from/to). */
export const placementOf = (content: { organization: string; parent?: string | null; position: string }) => ({
  organization: content.organization,
  parent: content.parent ?? null,
  position: content.position,
});
