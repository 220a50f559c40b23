import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The key of one user in one organization (a membership, the user's teams or grants there), for
 * loaders keyed by both: `<organizationId>|<userId>` (ids never contain "|").
 */
export function memberKey(organizationId: string, userId: string): string {
  return `${organizationId}|${userId}`;
}

/** The organization and user of a member key. */
export function splitMemberKey(key: string): { organizationId: string; userId: string } {
  const [organizationId, userId] = key.split('|') as [string, string];
  return { organizationId, userId };
}

/** The organizations and users named by a batch of member keys (the batch asks for their product). */
export function splitMemberKeys(keys: readonly string[]): { organizations: string[]; users: string[] } {
  const organizations = new Set<string>();
  const users = new Set<string>();
  for (const key of keys) {
    const [organization, user] = key.split('|') as [string, string];
    organizations.add(organization);
    users.add(user);
  }
  return { organizations: [...organizations], users: [...users] };
}

/**
 * How a loader keyed by member keys reads rows of `entity` (each of one user in one organization): the
 * fetch of a batch, one statement for the product of its organizations and users, and each row's key.
 */
export function byMemberKeys<Row extends { organization: string; user: string }>(em: EntityManager, entity: EntityName<Row>) {
  const fetch = (keys: string[]): Promise<Row[]> => {
    const { organizations, users } = splitMemberKeys(keys);
    return em.find(entity, { organization: { $in: organizations }, user: { $in: users } } as FilterQuery<Row>);
  };
  return [fetch, (row: Row) => memberKey(row.organization, row.user)] as const;
}
