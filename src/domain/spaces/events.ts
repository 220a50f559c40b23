import type { SpaceRow } from './entities.js';

/** The payloads of space events: the space as the contract names its fields, related resources as ids. */

export const spacePayload = (space: SpaceRow) => ({
  object: 'space',
  id: space.id,
  title: space.title,
  emoji: space.emoji,
  visibility: space.visibility,
  createdAt: space.createdAt.toISOString(),
  updatedAt: space.updatedAt.toISOString(),
  deletedAt: space.deletedAt?.toISOString() ?? null,
  editMode: space.editMode,
  organization: space.organization,
  parent: space.parent ?? null,
  revision: space.revision,
  defaultLevel: space.defaultLevel,
});

export const spaceTarget = (space: SpaceRow) => ({ spaceId: space.id });
