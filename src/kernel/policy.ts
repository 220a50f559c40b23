import { memberKey } from './member-keys.js';
import { isPastRetention } from './retention.js';
import type { Clock } from './clock.js';
import { forbidden, notFound } from './errors.js';
import { memoized, whenLoaded } from './loader.js';
import type { Loaders } from './request-loaders.js';
import { atLeast, isRole, spacePermissionsOf, strongest, type DefaultLevel, type Role } from './roles.js';
import type { Rows } from './rows.js';
import type { Viewer } from './viewer.js';
import { capRole } from './token-scope.js';

type CollectionRow = Rows['Collection'];
type SpaceRow = Rows['Space'];
type SiteRow = Rows['Site'];
type TeamRow = Rows['Team'];
type TeamMemberRow = Rows['TeamMember'];
type MemberRow = Rows['Member'];
type ContentGrantRow = Rows['ContentGrant'];
type IntegrationRow = Rows['Integration'];

/** What a guarded operation needs: any membership (guests included) or a content role. */
export type Need = 'member' | Role;
export type GuardTarget = 'ORGANIZATION' | 'COLLECTION' | 'SPACE' | 'SITE' | 'TEAM' | 'ORGANIZATION_OR_SUBDOMAIN' | 'INTEGRATION';

/**
 * What a guard may take into account besides the viewer's roles: the organization the resource must
 * belong to, an alternative that lets in a caller holding no role (see auth/checks.ts), and how a 403
 * names the operation.
 */
export type GuardScope = { within?: string | null; alternative?: () => Promise<boolean>; action?: string };

/**
 * What the policy reads of a space or collection row to give a viewer's role on it, besides its id and
 * organization (read models name them for the fields that ask for a role: permissions, viewerRole).
 */
export const ROLE_COLUMNS = ['parent', 'defaultLevel'] as const;

const roleKey = (row: CollectionRow | SpaceRow) => `${row.id}|${row.organization}|${row.parent ?? ''}|${row.defaultLevel}`;

/** Applies a `defaultLevel` to the level inherited from the parent. */
function applyDefaultLevel(level: DefaultLevel | string | null | undefined, inherited: Role | null): Role | null {
  if (level === 'inherit') return inherited;
  return isRole(level) ? level : null;
}

/** A value, or a promise of it while what it depends on is still loading. */
type Loading<T> = T | Promise<T>;

/**
 * What of some organizations' content a user may see, in the terms the lists' SQL filters on (see
 * visibility.ts): everything in the organizations they administer, what the default-level chain opens
 * to a non-guest member in those they belong to (`byDefault`), and what grants to the user or their teams
 * reach (spaces and collections by id, ids being unique across organizations). Nothing elsewhere.
 */
export type ContentReach = { everything: string[]; byDefault: string[]; spaces: string[]; collections: string[] };

/** The strongest role granted on each space and collection of one organization. */
type GrantedRoles = { spaces: Map<string, Role>; collections: Map<string, Role> };

function indexGrants(grants: ContentGrantRow[]): GrantedRoles {
  const granted: GrantedRoles = { spaces: new Map(), collections: new Map() };
  for (const grant of grants) {
    if (!isRole(grant.role)) continue;
    const [byId, id] = grant.space ? [granted.spaces, grant.space] : [granted.collections, grant.collection!];
    byId.set(id, strongest(byId.get(id), grant.role)!);
  }
  return granted;
}

/**
 * The one place that decides what a user may do (the viewer, or another user through `forUser`).
 * A role on content is the strongest of:
 * - the `defaultLevel` chain: the membership role passed down organization → collections → space,
 *   each `defaultLevel` replacing the inherited level (guests start with nothing);
 * - every grant to the user, or to one of their teams, on the item or on any collection above it.
 * Organization admins are admins of all content. Guests get content only through grants: that is
 * what guests are for (the reference invites outside collaborators to single spaces as guests).
 * Users who are not members (or are disabled) get nothing, whatever grants name them.
 * Results are memoized per request and read through loaders: one membership, one team-membership
 * and one grant statement per organization and batch, whatever the number of items judged. The role
 * and permission reads answer with a value rather than a promise once their rows are loaded: a tree
 * of hundreds of spaces asks for hundreds of `permissions` objects.
 *
 * The viewer's token may be limited (kernel/token-scope.ts): to one organization, in which case the
 * user is no member of any other here (they see nothing of them, as an outsider); and to a highest
 * role, which every role this policy answers for the viewer is capped at (organization, collection,
 * space, site, team and integration roles, and the permissions and guards derived from them). What the
 * viewer can see does not change with the cap: an admin's `read` token sees what the admin sees.
 */
export class Policy {
  // Keyed by what a role depends on, so that a row changed by a mutation is judged afresh.
  private readonly collectionRoles = memoized((c: CollectionRow) => this.computeCollectionRole(c), roleKey);
  private readonly spaceRoles = memoized((s: SpaceRow) => this.computeSpaceRole(s), roleKey);
  /** Roles from the `defaultLevel` chain alone (non-guest members only). */
  private readonly defaultRoles = memoized((c: CollectionRow) => this.computeDefaultRole(c), roleKey);
  /** Roles granted on a collection or on a collection above it. */
  private readonly inheritedGrants = memoized(
    (c: CollectionRow) => this.computeInheritedGrant(c),
    (c) => `${c.id}|${c.parent ?? ''}`,
  );
  private readonly grantedRoles = memoized((organizationId: string) => this.loadGrantedRoles(organizationId));
  private readonly others = new Map<string, Policy>();
  /** The viewer's token's limits, when this policy judges the viewer (none for another user). */
  private readonly cap: Role | null;
  private readonly onlyOrganization: string | null;

  constructor(
    private readonly viewer: Viewer | null,
    private readonly loaders: Loaders,
    private readonly clock: Clock,
    /** Whose roles this policy judges: the viewer unless made by `forUser`. */
    private readonly userId: string | null = viewer?.user.id ?? null,
  ) {
    const scope = userId !== null && userId === viewer?.user.id ? viewer.scope : undefined;
    this.cap = scope?.role ?? null;
    this.onlyOrganization = scope?.organization ?? null;
  }

  /** A role of the viewer's, through their token's cap. */
  private capped<R extends Role | null | undefined>(role: Loading<R>): Loading<R | Role> {
    return this.cap === null ? role : whenLoaded(role, (held) => capRole(held, this.cap));
  }

  /** The same rules applied to another user of the request (e.g. a member's spaces as an admin lists them). */
  forUser(userId: string): Policy {
    if (userId === this.userId) return this;
    let policy = this.others.get(userId);
    if (!policy) {
      policy = new Policy(this.viewer, this.loaders, this.clock, userId);
      this.others.set(userId, policy);
    }
    return policy;
  }

  /** Forgets memoized roles, when the request has written (with its loaders: see contextFor). */
  forget(): void {
    for (const memo of [this.collectionRoles, this.spaceRoles, this.defaultRoles, this.inheritedGrants, this.grantedRoles]) memo.clear();
    this.others.clear();
  }

  private membership(organizationId: string): Loading<MemberRow | null> {
    if (!this.userId) return null;
    if (this.onlyOrganization !== null && organizationId !== this.onlyOrganization) return null;
    if (this.userId === this.viewer?.user.id) return this.loaders.viewerMembership.get(organizationId);
    return this.loaders.membership.get(memberKey(organizationId, this.userId));
  }

  /** The user's team memberships in an organization. */
  teamMemberships(organizationId: string): Loading<TeamMemberRow[]> {
    if (!this.userId) return [];
    return this.loaders.teamMembershipsOf.get(memberKey(organizationId, this.userId));
  }

  /**
   * Loads what judging the user's content roles in an organization reads (membership, team memberships
   * and grants). Judging several users at once (a members list) awaits this for all of them first, so
   * that their reads share one batch whatever order the database answers in.
   */
  async prepare(organizationId: string): Promise<void> {
    await Promise.all([this.heldOrganizationRole(organizationId), this.grantedRoles.get(organizationId)]);
  }

  /** The user's membership role in an organization: undefined when not a member, null for guests (capped for the viewer). */
  organizationRole(organizationId: string): Loading<Role | null | undefined> {
    return this.capped(this.heldOrganizationRole(organizationId));
  }

  /** The membership role itself, uncapped: what the default-level chain starts from and visibility follows. */
  private heldOrganizationRole(organizationId: string): Loading<Role | null | undefined> {
    return whenLoaded(this.membership(organizationId), (membership) => {
      if (!membership || membership.disabled) return undefined;
      return isRole(membership.role) ? membership.role : null;
    });
  }

  isMember(organizationId: string): Loading<boolean> {
    return whenLoaded(this.heldOrganizationRole(organizationId), (role) => role !== undefined);
  }

  collectionRole(collection: CollectionRow): Loading<Role | null> {
    return this.capped(this.collectionRoles.get(collection));
  }

  spaceRole(space: SpaceRow): Loading<Role | null> {
    return this.capped(this.spaceRoles.get(space));
  }

  private computeCollectionRole(collection: CollectionRow): Loading<Role | null> {
    return whenLoaded(this.heldOrganizationRole(collection.organization), (orgRole) => {
      if (orgRole === undefined) return null;
      if (orgRole === 'admin') return 'admin';
      const byDefault = orgRole === null ? null : this.defaultRoles.get(collection);
      return whenLoaded(byDefault, (level) => whenLoaded(this.inheritedGrants.get(collection), (granted) => strongest(level, granted)));
    });
  }

  private computeSpaceRole(space: SpaceRow): Loading<Role | null> {
    return whenLoaded(this.heldOrganizationRole(space.organization), (orgRole) => {
      if (orgRole === undefined) return null;
      if (orgRole === 'admin') return 'admin';
      const byDefault =
        orgRole === null ? null : whenLoaded(this.defaultLevelBelow(space.parent, orgRole), (inherited) => applyDefaultLevel(space.defaultLevel, inherited));
      return whenLoaded(byDefault, (level) => whenLoaded(this.grantedOnSpace(space), (granted) => strongest(level, granted)));
    });
  }

  private computeDefaultRole(collection: CollectionRow): Loading<Role | null> {
    return whenLoaded(this.heldOrganizationRole(collection.organization), (orgRole) => {
      if (!orgRole) return null; // guests and outsiders: the chain gives them nothing
      return whenLoaded(this.defaultLevelBelow(collection.parent, orgRole), (inherited) => applyDefaultLevel(collection.defaultLevel, inherited));
    });
  }

  /** The default level that items directly under `parentId` (null: the top level) inherit. */
  private defaultLevelBelow(parentId: string | null | undefined, orgRole: Role): Loading<Role | null> {
    if (!parentId) return orgRole;
    return whenLoaded(this.loaders.collection.get(parentId), (parent) => (parent ? this.defaultRoles.get(parent) : orgRole));
  }

  private loadGrantedRoles(organizationId: string): Loading<GrantedRoles | null> {
    if (!this.userId) return null;
    return whenLoaded(this.loaders.grantsReaching.get(memberKey(organizationId, this.userId)), (grants) => {
      const granted = indexGrants(grants);
      return granted.spaces.size + granted.collections.size > 0 ? granted : null;
    });
  }

  private computeInheritedGrant(collection: CollectionRow): Loading<Role | null> {
    return whenLoaded(this.grantedRoles.get(collection.organization), (granted) => {
      if (!granted) return null;
      return whenLoaded(this.grantAbove(collection.parent), (above) => strongest(granted.collections.get(collection.id), above));
    });
  }

  private grantedOnSpace(space: SpaceRow): Loading<Role | null> {
    return whenLoaded(this.grantedRoles.get(space.organization), (granted) => {
      if (!granted) return null;
      return whenLoaded(this.grantAbove(space.parent), (above) => strongest(granted.spaces.get(space.id), above));
    });
  }

  private grantAbove(parentId: string | null | undefined): Loading<Role | null> {
    if (!parentId) return null;
    return whenLoaded(this.loaders.collection.get(parentId), (parent) => (parent ? this.inheritedGrants.get(parent) : null));
  }

  /**
   * The same rules as spaceRole and collectionRole, for whole organizations at once: what lists filter
   * on in SQL. A role is non-null exactly where this reach says the item is visible.
   */
  async contentReach(organizationIds: readonly string[]): Promise<ContentReach> {
    const reach: ContentReach = { everything: [], byDefault: [], spaces: [], collections: [] };
    // Every organization's role and grants at once: their loaders then batch into one statement each.
    const distinct = [...new Set(organizationIds)];
    const known = await Promise.all(distinct.map((id) => Promise.all([this.heldOrganizationRole(id), this.grantedRoles.get(id)])));
    for (const [i, organizationId] of distinct.entries()) {
      const [role, granted] = known[i];
      if (role === undefined) continue;
      if (role === 'admin') {
        reach.everything.push(organizationId);
        continue;
      }
      if (role !== null) reach.byDefault.push(organizationId);
      reach.spaces.push(...(granted?.spaces.keys() ?? []));
      reach.collections.push(...(granted?.collections.keys() ?? []));
    }
    return reach;
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
      return whenLoaded(member ? this.teamMemberships(organizationId) : [], (teams) => {
        const admin = role === 'admin';
        const nonGuest = member && role !== null;
        return {
          view: member,
          admin,
          ownTeam: teams.some((m) => m.role === 'owner'),
          createContent: atLeast(role, 'create'),
          createOpenAPISpec: atLeast(role, 'create'),
          ingestConversations: admin,
          viewBilling: admin,
          listMembers: nonGuest,
          listTeams: nonGuest,
          listIntegrations: nonGuest,
          access: member,
          listInstallations: admin,
          installIntegration: admin,
        };
      });
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
    return whenLoaded(this.spaceRole(space), (role) => spacePermissionsOf(role));
  }

  /**
   * The user's role on a team, as guards and `permissions` read it: `admin` (manage its members) for
   * organization admins and the team's owners, `read` for the other non-guest members.
   */
  async teamRole(team: TeamRow): Promise<Role | null | undefined> {
    const orgRole = await this.heldOrganizationRole(team.organization);
    if (orgRole === undefined || orgRole === 'admin') return this.capped(orgRole);
    const owner = (await this.teamMemberships(team.organization)).some((m) => m.team === team.id && m.role === 'owner');
    return this.capped(owner ? 'admin' : orgRole && 'read');
  }

  async teamPermissions(team: TeamRow) {
    const role = await this.teamRole(team);
    return { admin: atLeast(role, 'admin'), view: atLeast(role, 'read') };
  }

  /** The viewer's role on a site: their organization role (guests have none). */
  siteRole(site: SiteRow): Loading<Role | null> {
    return whenLoaded(this.organizationRole(site.organization), (role) => role ?? null);
  }

  /**
   * The user's role on an integration: their role in the organization that publishes it; `read` for
   * everyone else (guests of that organization included) when it is public or unlisted; none (it is
   * invisible) when it is private.
   */
  integrationRole(integration: IntegrationRow): Loading<Role | null | undefined> {
    return whenLoaded(this.organizationRole(integration.organization), (role) => {
      if (role) return role;
      return integration.visibility !== 'private' || role === null ? 'read' : undefined;
    });
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
   * a role below `need`. A caller with no role is let in when the scope's alternative opens the target.
   */
  async require(target: GuardTarget, id: string, need: Need, scope: GuardScope = {}): Promise<void> {
    const { role, what, organization } = await this.roleOn(target, id);
    if (scope.within && organization !== scope.within) throw notFound(what);
    if (!role && scope.alternative && (await scope.alternative())) return;
    if (role === undefined) throw notFound(what);
    if (need === 'member') return;
    if (role === null && target !== 'ORGANIZATION') throw notFound(what);
    if (!atLeast(role, need)) throw forbidden(`${what}: ${scope.action ?? 'this operation'} needs the ${need} role`);
  }

  /**
   * The guard of a field of an object the caller already holds (`Site.shareLinks`): 403 below `need`
   * and never 404, since the object itself is no secret to them.
   */
  async requireOnHeld(target: GuardTarget, id: string, need: Need, action = 'this operation'): Promise<void> {
    const { role, what } = await this.roleOn(target, id);
    if (need === 'member' ? role === undefined : !atLeast(role, need)) throw forbidden(`${what}: ${action} needs the ${need} role`);
  }

  private async roleOn(target: GuardTarget, id: string): Promise<{ role: Role | null | undefined; what: string; organization?: string }> {
    if (target === 'ORGANIZATION') {
      const organization = await this.loaders.organization.load(id);
      return { role: organization ? await this.organizationRole(id) : undefined, what: 'Organization', organization: organization?.id };
    }
    if (target === 'COLLECTION') {
      const collection = await this.loaders.collection.load(id);
      if (!collection || !(await this.isMember(collection.organization))) return { role: undefined, what: 'Collection' };
      return { role: await this.collectionRole(collection), what: 'Collection', organization: collection.organization };
    }
    if (target === 'ORGANIZATION_OR_SUBDOMAIN') {
      const organization = await this.loaders.organizationByIdOrSubdomain.load(id);
      return { role: organization ? await this.organizationRole(organization.id) : undefined, what: 'Organization', organization: organization?.id };
    }
    if (target === 'INTEGRATION') {
      const integration = await this.loaders.integration.load(id);
      return { role: integration ? await this.integrationRole(integration) : undefined, what: 'Integration', organization: integration?.organization };
    }
    if (target === 'TEAM') {
      const team = await this.loaders.team.load(id);
      if (!team) return { role: undefined, what: 'Team' };
      return { role: await this.teamRole(team), what: 'Team', organization: team.organization };
    }
    if (target === 'SITE') {
      const site = await this.loaders.site.load(id);
      if (!site) return { role: undefined, what: 'Site' };
      const role = (await this.isMember(site.organization)) ? await this.siteRole(site) : undefined;
      return { role, what: 'Site', organization: site.organization };
    }
    const space = await this.loaders.space.load(id);
    if (!space || isPastRetention(space, this.clock.now())) return { role: undefined, what: 'Space' };
    if (!(await this.isMember(space.organization))) return { role: undefined, what: 'Space', organization: space.organization };
    return { role: await this.spaceRole(space), what: 'Space', organization: space.organization };
  }
}
