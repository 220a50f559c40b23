import type { CollectionRecord, Snapshot, SpaceRecord } from './snapshot.js';

/**
 * Who may see and do what, re-implemented from the documentation over the snapshot's rows, for one
 * viewer. Written from docs/behaviour/access.md, docs/permissions.md and docs/behaviour/spaces-and-
 * collections.md, without the server's Policy, its loaders or its SQL visibility filter:
 *
 * - the viewer's organization role is their membership's (none when they are not a member or are
 *   disabled; null for a guest);
 * - a role on a collection or space is the strongest of (a) the organization role passed down the tree,
 *   each `defaultLevel` replacing the level inherited (`inherit` keeps it, null gives nothing), for
 *   non-guest members only, and (b) every grant to the viewer or one of their teams, on the item or on
 *   any collection above it; organization admins are admins of all content; outsiders get nothing;
 * - an item is visible when the viewer holds a role on it; a deleted space stays readable by those who
 *   could read it for 7 days, then is gone for everyone.
 */

/** Content roles, weakest first (schema.graphql, enum Role, lists them strongest first). */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const isRole = (value: string | null | undefined): value is Role => (ROLES as readonly (string | null | undefined)[]).includes(value);
const rankOf = (role: Role | null | undefined) => (role ? ROLES.indexOf(role) + 1 : 0);

/** True when `held` is at least `needed`. */
export const atLeast = (held: Role | null | undefined, needed: Role) => rankOf(held) >= rankOf(needed);

function strongest(roles: (Role | null | undefined)[]): Role | null {
  let best: Role | null = null;
  for (const role of roles) if (rankOf(role) > rankOf(best)) best = role ?? null;
  return best;
}

/** A deleted space can be restored, and read, for 7 days. */
const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export class AccessRules {
  constructor(
    private readonly rows: Snapshot,
    readonly userId: string,
    private readonly now: Date,
  ) {}

  /** The viewer's membership role: undefined when not a member (or disabled), null for a guest. */
  organizationRole(organizationId: string): Role | null | undefined {
    const membership = this.rows.members.find((m) => m.organizationId === organizationId && m.userId === this.userId);
    if (!membership || membership.disabled) return undefined;
    return isRole(membership.role) ? membership.role : null;
  }

  isMember(organizationId: string): boolean {
    return this.organizationRole(organizationId) !== undefined;
  }

  /** True when the viewer owns a team of the organization. */
  ownsATeam(organizationId: string): boolean {
    return this.rows.teamMembers.some((m) => m.organizationId === organizationId && m.userId === this.userId && m.role === 'owner');
  }

  collectionRole(collection: CollectionRecord): Role | null {
    return this.contentRole(collection, collection.id, []);
  }

  spaceRole(space: SpaceRecord): Role | null {
    return this.contentRole(space, null, [space.id]);
  }

  /** A space is readable by a single read while the viewer holds a role on it and it is within its window. */
  readsSpace(space: SpaceRecord): boolean {
    return this.spaceRole(space) !== null && !this.pastRetention(space);
  }

  pastRetention(space: SpaceRecord): boolean {
    return space.deletedAt !== null && space.deletedAt.getTime() + RETENTION_MS <= this.now.getTime();
  }

  /** The collection by id when the viewer can see it, else null. */
  visibleCollection(id: string | null): CollectionRecord | null {
    const collection = id ? this.rows.collections.find((c) => c.id === id) : undefined;
    return collection && this.collectionRole(collection) !== null ? collection : null;
  }

  /** Collections from the top down to the item's parent. */
  private collectionsAbove(parentId: string | null): CollectionRecord[] {
    const chain: CollectionRecord[] = [];
    for (let id = parentId; id;) {
      const parent = this.rows.collections.find((c) => c.id === id);
      if (!parent) break;
      chain.unshift(parent);
      id = parent.parentId;
    }
    return chain;
  }

  private contentRole(item: CollectionRecord | SpaceRecord, collectionId: string | null, spaceIds: string[]): Role | null {
    const orgRole = this.organizationRole(item.organizationId);
    if (orgRole === undefined) return null;
    if (orgRole === 'admin') return 'admin';
    const above = this.collectionsAbove(item.parentId);
    let byDefault: Role | null = orgRole;
    for (const level of [...above.map((c) => c.defaultLevel), item.defaultLevel]) {
      if (level !== 'inherit') byDefault = isRole(level) ? level : null;
    }
    const collections = new Set([...above.map((c) => c.id), ...(collectionId ? [collectionId] : [])]);
    const teams = new Set(this.rows.teamMembers.filter((m) => m.userId === this.userId && m.organizationId === item.organizationId).map((m) => m.teamId));
    const granted = this.rows.grants
      .filter((g) => g.organizationId === item.organizationId && (g.userId === this.userId || (g.teamId !== null && teams.has(g.teamId))))
      .filter((g) => (g.collectionId !== null && collections.has(g.collectionId)) || (g.spaceId !== null && spaceIds.includes(g.spaceId)))
      .map((g) => (isRole(g.role) ? g.role : null));
    return strongest([orgRole === null ? null : byDefault, ...granted]);
  }
}
