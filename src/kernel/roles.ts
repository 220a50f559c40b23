/** Content roles, weakest first. A role grants everything the roles before it grant. */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** `defaultLevel` of a collection or space: a role, `inherit` (take the parent's), or null (no default access). */
export type DefaultLevel = Role | 'inherit' | null;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function rank(role: Role | null | undefined): number {
  return role ? ROLES.indexOf(role) + 1 : 0;
}

/** True when `held` is at least `needed`. */
export function atLeast(held: Role | null | undefined, needed: Role): boolean {
  return rank(held) >= rank(needed);
}

export function strongest(...roles: (Role | null | undefined)[]): Role | null {
  let best: Role | null = null;
  for (const role of roles) if (rank(role) > rank(best)) best = role ?? null;
  return best;
}

export const DEFAULT_LEVELS = [...ROLES, 'inherit'] as const;

/** Each permission on a space, and the role it needs. */
export const SPACE_PERMISSION_ROLES = {
  view: 'read',
  access: 'read',
  admin: 'admin',
  viewInviteLinks: 'admin',
  edit: 'edit',
  triggerGitSync: 'edit',
  comment: 'comment',
  merge: 'review',
  review: 'review',
  /** Installing an installation of the organization on the space (the organization's admins are admins of every space). */
  installIntegration: 'admin',
} as const satisfies Record<string, Role>;

/** What a role allows on a space. */
export type SpacePermissions = Readonly<Record<keyof typeof SPACE_PERMISSION_ROLES, boolean>>;

/** One frozen object per role, shared by every space of every answer. */
const spacePermissionsByRole = new Map<string, SpacePermissions>(
  [null, ...ROLES].map((role) => [
    `${role}`,
    Object.freeze(
      Object.fromEntries(Object.entries(SPACE_PERMISSION_ROLES).map(([permission, needed]) => [permission, atLeast(role, needed)])),
    ) as SpacePermissions,
  ]),
);

export function spacePermissionsOf(role: Role | null | undefined): SpacePermissions {
  return spacePermissionsByRole.get(`${role ?? null}`)!;
}
