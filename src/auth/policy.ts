import type { Clock } from '../clock.js';
import type { CollectionRow } from '../domain/collections/entities.js';
import type { SpaceRow } from '../domain/spaces/entities.js';
import type { SiteRow } from '../domain/sites/entities.js';
import { isPastRetention } from '../domain/spaces/retention.js';
import { forbidden, notFound } from '../graphql/errors.js';
import { memoized, whenLoaded } from '../graphql/loader.js';
import type { Loaders } from '../graphql/loaders.js';
import { atLeast, isRole, type DefaultLevel, type Role } from './roles.js';
import type { Viewer } from './viewer.js';

/** What a guarded operation needs: any membership (guests included) or a content role. */
export type Need = 'member' | Role;
export type GuardTarget = 'ORGANIZATION' | 'COLLECTION' | 'SPACE' | 'SITE';

/** What a guard may take into account besides the viewer's roles. */
export type GuardScope = { within?: string | null; shareKey?: string | null };

const roleKey = (row: CollectionRow | SpaceRow) => `${row.id}|${row.organization}|${row.parent ?? ''}|${row.defaultLevel}`;

/** Applies a `defaultLevel` to the level inherited from the parent. */
function applyDefaultLevel(level: DefaultLevel | string | null | undefined, inherited: Role | null): Role | null {
  if (level === 'inherit') return inherited;
  return isRole(level) ? level : null;
}

/** A value, or a promise of it while what it depends on is still loading. */
type Loading<T> = T | Promise<T>;

/**
 * The one place that decides what the viewer may do. Roles come from the membership role and the
 * `defaultLevel` chain (organization → collections → space); organization admins are admins of all
 * content; guests get nothing by default. Results are memoized per request and batched via loaders.
 * The role and permission reads answer with a value rather than a promise once their rows are loaded:
 * a tree of hundreds of spaces asks for hundreds of `permissions` objects.
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
  organizationRole(organizationId: string): Loading<Role | null | undefined> {
    if (!this.viewer) return undefined;
    return whenLoaded(this.loaders.viewerMembership.get(organizationId), (membership) => {
      if (!membership || membership.disabled) return undefined;
      return isRole(membership.role) ? membership.role : null;
    });
  }

  isMember(organizationId: string): Loading<boolean> {
    return whenLoaded(this.organizationRole(organizationId), (role) => role !== undefined);
  }

  collectionRole(collection: CollectionRow): Loading<Role | null> {
    return this.collectionRoles.get(collection);
  }

  spaceRole(space: SpaceRow): Loading<Role | null> {
    return this.spaceRoles.get(space);
  }

  private computeCollectionRole(collection: CollectionRow): Loading<Role | null> {
    return this.contentRole(collection.organization, collection.parent, collection.defaultLevel);
  }

  private computeSpaceRole(space: SpaceRow): Loading<Role | null> {
    return this.contentRole(space.organization, space.parent, space.defaultLevel);
  }

  /** The role on a collection or space from the membership role and the `defaultLevel` chain. */
  private contentRole(organizationId: string, parentId: string | null | undefined, defaultLevel: string | null | undefined): Loading<Role | null> {
    return whenLoaded(this.organizationRole(organizationId), (orgRole) => {
      if (orgRole === undefined || orgRole === null) return null;
      if (orgRole === 'admin') return 'admin';
      return whenLoaded(this.parentLevel(parentId, orgRole), (inherited) => applyDefaultLevel(defaultLevel, inherited));
    });
  }

  private parentLevel(parentId: string | null | undefined, orgRole: Role): Loading<Role | null> {
    if (!parentId) return orgRole;
    return whenLoaded(this.loaders.collection.get(parentId), (parent) => (parent ? this.collectionRole(parent) : orgRole));
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

  organizationPermissions(organizationId: string) {
    return whenLoaded(this.organizationRole(organizationId), (role) => {
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
    });
  }

  collectionPermissions(collection: CollectionRow) {
    return whenLoaded(this.collectionRole(collection), (role) => ({
      view: atLeast(role, 'read'),
      admin: atLeast(role, 'admin'),
      viewInviteLinks: atLeast(role, 'admin'),
      create: atLeast(role, 'create'),
    }));
  }

  spacePermissions(space: SpaceRow) {
    return whenLoaded(this.spaceRole(space), (role) => ({
      view: atLeast(role, 'read'),
      access: atLeast(role, 'read'),
      admin: atLeast(role, 'admin'),
      viewInviteLinks: atLeast(role, 'admin'),
      edit: atLeast(role, 'edit'),
      triggerGitSync: atLeast(role, 'edit'),
      comment: atLeast(role, 'comment'),
      merge: atLeast(role, 'review'),
      review: atLeast(role, 'review'),
    }));
  }

  /** The viewer's role on a site: their organization role (guests have none). */
  siteRole(site: SiteRow): Loading<Role | null> {
    return whenLoaded(this.organizationRole(site.organization), (role) => role ?? null);
  }

  /** True when `shareKey` is an active share link of the site and the site is shared by link. */
  async opensSite(site: SiteRow, shareKey: string | null | undefined): Promise<boolean> {
    if (!shareKey || site.visibility !== 'share-link') return false;
    const link = await this.loaders.shareLinkByKey.load(shareKey);
    return !!link && link.active && link.site === site.id;
  }

  /** True when `shareKey` opens a share-link site that publishes the space. */
  async opensSpace(space: SpaceRow, shareKey: string | null | undefined): Promise<boolean> {
    if (!shareKey) return false;
    const link = await this.loaders.shareLinkByKey.load(shareKey);
    if (!link?.active || !(await this.loaders.siteSpacesBySpace.load(space.id)).some((s) => s.site === link.site)) return false;
    const site = await this.loaders.site.load(link.site);
    return !!site && (await this.opensSite(site, shareKey));
  }

  /**
   * The guard of a root field: loads the target, answers 404 when the viewer cannot see it (or it
   * does not exist, or belongs to another organization than `within`) and 403 when they see it with
   * a role below `need`. An active share key of a share-link site grants read access.
   */
  async require(target: GuardTarget, id: string, need: Need, scope: GuardScope = {}): Promise<void> {
    const { role, what, organization, shared } = await this.roleOn(target, id, scope.shareKey);
    if (scope.within && organization !== scope.within) throw notFound(what);
    if (shared && need === 'read' && !role) return;
    if (role === undefined) throw notFound(what);
    if (need === 'member') return;
    if (role === null && target !== 'ORGANIZATION') throw notFound(what);
    if (!atLeast(role, need)) throw forbidden(`${what}: this operation needs the ${need} role`);
  }

  private async roleOn(
    target: GuardTarget,
    id: string,
    shareKey?: string | null,
  ): Promise<{ role: Role | null | undefined; what: string; organization?: string; shared?: boolean }> {
    if (target === 'ORGANIZATION') {
      const organization = await this.loaders.organization.load(id);
      return { role: organization ? await this.organizationRole(id) : undefined, what: 'Organization', organization: organization?.id };
    }
    if (target === 'COLLECTION') {
      const collection = await this.loaders.collection.load(id);
      if (!collection || !(await this.isMember(collection.organization))) return { role: undefined, what: 'Collection' };
      return { role: await this.collectionRole(collection), what: 'Collection', organization: collection.organization };
    }
    if (target === 'SITE') {
      const site = await this.loaders.site.load(id);
      if (!site) return { role: undefined, what: 'Site' };
      const shared = await this.opensSite(site, shareKey);
      const role = (await this.isMember(site.organization)) ? await this.siteRole(site) : undefined;
      return { role, what: 'Site', organization: site.organization, shared };
    }
    const space = await this.loaders.space.load(id);
    if (!space || isPastRetention(space, this.clock.now())) return { role: undefined, what: 'Space' };
    const shared = !space.deletedAt && (await this.opensSpace(space, shareKey));
    if (!(await this.isMember(space.organization))) return { role: undefined, what: 'Space', organization: space.organization, shared };
    return { role: await this.spaceRole(space), what: 'Space', organization: space.organization, shared };
  }
}
