/** The payload of a permission event: what it is on, who holds it, the role; related resources as ids. */
type Grant = { space?: string | null; collection?: string | null; team?: string | null; user?: string | null; role: string };

export const grantPayload = (grant: Grant) => ({
  object: 'permission',
  space: grant.space ?? null,
  collection: grant.collection ?? null,
  team: grant.team ?? null,
  user: grant.user ?? null,
  role: grant.role,
});

export const grantTarget = (target: { space?: string; collection?: string }, grantee: { team: string | null; user: string | null }) => ({
  spaceId: target.space,
  collectionId: target.collection,
  teamId: grantee.team,
  userId: grantee.user,
});
