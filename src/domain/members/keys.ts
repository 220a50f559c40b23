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
