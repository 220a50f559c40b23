import type { Clock } from '../clock.js';
import type { CollectionRow } from '../domain/collections/entities.js';
import type { SpaceRow } from '../domain/spaces/entities.js';
import { isPastRetention } from '../domain/spaces/retention.js';
import { forbidden, notFound } from '../graphql/errors.js';
import { memoized } from '../graphql/loader.js';
import type { Loaders } from '../graphql/loaders.js';
import { atLeast, isRole, type DefaultLevel, type Role } from './roles.js';
import type { Viewer } from './viewer.js';

/** What a guarded operation needs: any membership (guests included) or a content role. */
export type Need = 'member' | Role;
export type GuardTarget = 'ORGANIZATION' | 'COLLECTION' | 'SPACE';

const roleKey = (row: CollectionRow | SpaceRow) => `${row.id}|${row.organization}|${row.parent ?? ''}|${row.defaultLevel}`;

/** Applies a `defaultLevel` to the level inherited from the parent. */
function applyDefaultLevel(level: DefaultLevel | string | null | undefined, inherited: Role | null): Role | null {
  if (level === 'inherit') return inherited;
  return isRole(level) ? level : null;
}

/**
 * The one place that decides what the viewer may do. Roles come from the membership role and the
 * `defaultLevel` chain (organization → collections → space); organization admins are admins of all
 * content; guests get nothing by default. Results are memoized per request and batched via loaders.
 */
export class Policy {
  // Keyed by what a role depends on, so that a row changed by a mutation is judged afresh.
  private readonly collectionRoles = memoized((c: CollectionRow) => this.computeCollectionRole(c), roleKey);
  private readonly spaceRoles = memoized((s: SpaceRow) => this.computeSpaceRole(s), roleKey);

  constructor(
    private readonly viewer: Viewer | null,
    private readonly loaders: Loaders,
    private readonly clock: Clock,
  ) {}

  /** The viewer's membership role in an organization: undefined when not a member, null for guests. */
  async organizationRole(organizationId: string): Promise<Role | null | undefined> {
    if (!this.viewer) return undefined;
    const membership = await this.loaders.viewerMembership.load(organizationId);
    if (!membership || membership.disabled) return undefined;
    return isRole(membership.role) ? membership.role : null;
  }

  async isMember(organizationId: string): Promise<boolean> {
    return (await this.organizationRole(organizationId)) !== undefined;
  }

  collectionRole(collection: CollectionRow): Promise<Role | null> {
    return this.collectionRoles.load(collection);
  }

  spaceRole(space: SpaceRow): Promise<Role | null> {
    return this.spaceRoles.load(space);
  }

  private async computeCollectionRole(collection: CollectionRow): Promise<Role | null> {
    const orgRole = await this.organizationRole(collection.organization);
    if (orgRole === undefined || orgRole === null) return null;
    if (orgRole === 'admin') return 'admin';
    return applyDefaultLevel(collection.defaultLevel, await this.parentLevel(collection.parent, orgRole));
  }

  private async computeSpaceRole(space: SpaceRow): Promise<Role | null> {
    const orgRole = await this.organizationRole(space.organization);
    if (orgRole === undefined || orgRole === null) return null;
    if (orgRole === 'admin') return 'admin';
    return applyDefaultLevel(space.defaultLevel, await this.parentLevel(space.parent, orgRole));
  }

  private async parentLevel(parentId: string | null | undefined, orgRole: Role): Promise<Role | null> {
    if (!parentId) return orgRole;
    const parent = await this.loaders.collection.load(parentId);
    return parent ? this.collectionRole(parent) : orgRole;
  }

  /** A collection by id when the viewer can see it, else null (hidden and missing look the same). */
  async visibleCollection(id: string | null | undefined): Promise<CollectionRow | null> {
    const collection = id ? await this.loaders.collection.load(id) : null;
    return collection && (await this.collectionRole(collection)) !== null ? collection : null;
  }

  /** Role needed to create content at the top level of an organization or inside a collection. */
  async canCreateIn(organizationId: string, parentId: string | null | undefined): Promise<boolean> {
    if (parentId) {
      const parent = await this.loaders.collection.load(parentId);
      return !!parent && atLeast(await this.collectionRole(parent), 'create');
    }
    return atLeast(await this.organizationRole(organizationId), 'create');
  }

  async organizationPermissions(organizationId: string) {
    const role = await this.organizationRole(organizationId);
    const member = role !== undefined;
    const admin = role === 'admin';
    const nonGuest = member && role !== null;
    return {
      view: member,
      admin,
      ownTeam: false,
      createContent: atLeast(role, 'create'),
      createOpenAPISpec: atLeast(role, 'create'),
      ingestConversations: admin,
      viewBilling: admin,
      listMembers: nonGuest,
      listTeams: nonGuest,
      listIntegrations: nonGuest,
    };
  }

  async collectionPermissions(collection: CollectionRow) {
    const role = await this.collectionRole(collection);
    return {
      view: atLeast(role, 'read'),
      admin: atLeast(role, 'admin'),
      viewInviteLinks: atLeast(role, 'admin'),
      create: atLeast(role, 'create'),
    };
  }

  async spacePermissions(space: SpaceRow) {
    const role = await this.spaceRole(space);
    return {
      view: atLeast(role, 'read'),
      access: atLeast(role, 'read'),
      admin: atLeast(role, 'admin'),
      viewInviteLinks: atLeast(role, 'admin'),
      edit: atLeast(role, 'edit'),
      triggerGitSync: atLeast(role, 'edit'),
      comment: atLeast(role, 'comment'),
      merge: atLeast(role, 'review'),
      review: atLeast(role, 'review'),
    };
  }

  /**
   * The guard of a root field: loads the target, answers 404 when the viewer cannot see it (or it
   * does not exist) and 403 when they see it with a role below `need`.
   */
  async require(target: GuardTarget, id: string, need: Need): Promise<void> {
    const { role, what } = await this.roleOn(target, id);
    if (role === undefined) throw notFound(what);
    if (need === 'member') return;
    if (role === null && target !== 'ORGANIZATION') throw notFound(what);
    if (!atLeast(role, need)) throw forbidden(`${what}: this operation needs the ${need} role`);
  }

  private async roleOn(target: GuardTarget, id: string): Promise<{ role: Role | null | undefined; what: string }> {
    if (target === 'ORGANIZATION') {
      const organization = await this.loaders.organization.load(id);
      return { role: organization ? await this.organizationRole(id) : undefined, what: 'Organization' };
    }
    if (target === 'COLLECTION') {
      const collection = await this.loaders.collection.load(id);
      if (!collection || !(await this.isMember(collection.organization))) return { role: undefined, what: 'Collection' };
      return { role: await this.collectionRole(collection), what: 'Collection' };
    }
    const space = await this.loaders.space.load(id);
    if (!space || isPastRetention(space, this.clock.now()) || !(await this.isMember(space.organization))) {
      return { role: undefined, what: 'Space' };
    }
    return { role: await this.spaceRole(space), what: 'Space' };
  }
}
