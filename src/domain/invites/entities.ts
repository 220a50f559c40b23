import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import type { Role } from '../../kernel/roles.js';
import { Collection } from '../collections/index.js';
import { Organization } from '../organizations/index.js';
import { Space } from '../spaces/index.js';

/**
 * A link that lets whoever holds it join an organization: as a member with `role` (null: guest), or,
 * for a content link (`space` or `collection` set), as a guest given `role` on that content. The id is
 * the secret of the link (the reference joins by invite id), so it is drawn from 192 random bits.
 */
export const InviteLink = defineEntity({
  name: 'InviteLink',
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
  checks: [{ name: 'invite_link_at_most_one_target', expression: 'num_nonnulls(space_id, collection_id) <= 1' }],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    /** Organization role of an organization link (null: guest); the level on the content of a content link. */
    role: p.string().nullable(),
    space: () => p.manyToOne(Space).mapToPk().nullable().deleteRule('cascade').index(),
    collection: () => p.manyToOne(Collection).mapToPk().nullable().deleteRule('cascade').index(),
    createdAt: p.datetime(),
  },
});
/** The managed entity, for the services that change it; reads get the read-only `InviteLinkRow`. */
export type InviteLinkEntity = InferEntity<typeof InviteLink>;
export type InviteLinkRow = Plain<InviteLinkEntity>;

/** A link to a space (`InviteLink.__resolveType` tells them by `space`): a content link always has its level. */
export type SpaceInviteLinkRow = InviteLinkRow & { readonly space: string; readonly role: Role };
/** A link to a collection, likewise. */
export type CollectionInviteLinkRow = InviteLinkRow & { readonly space: null; readonly collection: string; readonly role: Role };
