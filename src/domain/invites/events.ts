import { createHash } from 'node:crypto';
import type { InviteLinkRow } from './entities.js';

/**
 * An invite link's id is its secret (whoever holds it joins), so events, which many receivers read,
 * name the link by a fingerprint of it instead.
 */
export const inviteFingerprint = (inviteId: string) => createHash('sha256').update(inviteId).digest('base64url').slice(0, 16);

/** The link as the contract names its fields: `role` for an organization link, `level` for a content link. */
export function invitePayload(link: InviteLinkRow) {
  const content = link.space || link.collection;
  return {
    object: 'invite',
    fingerprint: inviteFingerprint(link.id),
    ...(content ? { level: link.role, space: link.space ?? null, collection: link.collection ?? null } : { role: link.role }),
    createdAt: link.createdAt.toISOString(),
  };
}

export const inviteTarget = (link: InviteLinkRow) => ({ organizationId: link.organization, spaceId: link.space, collectionId: link.collection });
