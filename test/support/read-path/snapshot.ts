import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Every row the reference reader answers from, read with plain `select` statements: one per table, all
 * of its rows (the test file's database holds only what the test seeded). The rows are read once, after
 * seeding; nothing changes them while the property runs. Column names are the tables' own, renamed to
 * camelCase; times become Dates.
 */

export type OrganizationRecord = {
  id: string;
  title: string;
  createdAt: Date;
  emailDomains: string[];
  hostname: string | null;
  type: string;
  useCase: string | null;
  communityType: string | null;
  defaultRole: string | null;
  defaultContent: { type: string; site: string } | null;
  logo: string | null;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  plan: string;
};
export type UserRecord = { id: string; email: string; displayName: string; photoURL: string | null; instanceAdmin: boolean };
export type MemberRecord = { organizationId: string; userId: string; role: string | null; disabled: boolean };
export type TeamMemberRecord = { teamId: string; userId: string; organizationId: string; role: string };
export type GrantRecord = {
  organizationId: string;
  spaceId: string | null;
  collectionId: string | null;
  teamId: string | null;
  userId: string | null;
  role: string;
};
export type CollectionRecord = {
  id: string;
  organizationId: string;
  parentId: string | null;
  title: string;
  description: string | null;
  defaultLevel: string | null;
  position: string;
};
export type SpaceRecord = {
  id: string;
  organizationId: string;
  parentId: string | null;
  title: string;
  emoji: string | null;
  visibility: string;
  editMode: string;
  defaultLevel: string | null;
  position: string;
  revision: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
};
export type ChangeRequestRecord = {
  id: string;
  organizationId: string;
  spaceId: string;
  number: number;
  status: string;
  subject: string;
  createdBy: string;
  contributors: string[];
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor: string | null;
  revisionMerged: string | null;
  createdAt: Date;
  updatedAt: Date;
};
export type CommentRecord = {
  id: string;
  organizationId: string;
  spaceId: string;
  changeRequestId: string | null;
  postedBy: string;
  postedAt: Date;
  editedAt: Date | null;
  markdown: string;
  status: string;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  revision: string;
  node: string | null;
  nodePreview: string | null;
};
export type ReplyRecord = {
  id: string;
  organizationId: string;
  spaceId: string;
  commentId: string;
  postedBy: string;
  postedAt: Date;
  editedAt: Date | null;
  markdown: string;
};
export type ReactionRecord = { commentId: string; target: string; userId: string; emoji: string; reactedAt: Date };
export type SiteRecord = {
  id: string;
  organizationId: string;
  type: string;
  title: string;
  hostname: string | null;
  basename: string | null;
  proxyOrigin: string | null;
  visibility: string;
  published: boolean;
  adaptiveContentEnabled: boolean;
  agentsContext: string;
  defaultSection: string | null;
  defaultSiteSpace: string | null;
  createdAt: Date;
};
export type SectionGroupRecord = { id: string; organizationId: string; siteId: string; title: string; icon: string | null; position: string };
export type SectionRecord = {
  id: string;
  organizationId: string;
  siteId: string;
  sectionGroupId: string | null;
  title: string;
  description: string | null;
  path: string;
  condition: string | null;
  icon: string | null;
  defaultSiteSpace: string | null;
  position: string;
};
export type SiteSpaceRecord = {
  id: string;
  organizationId: string;
  siteId: string;
  sectionId: string | null;
  spaceId: string;
  path: string;
  condition: string | null;
  position: string;
};
export type ShareLinkRecord = { id: string; siteId: string; name: string; key: string; active: boolean; createdAt: Date };
export type AdaptiveSchemaRecord = { siteId: string; jsonSchema: unknown; updatedAt: Date };

export type Snapshot = {
  organizations: OrganizationRecord[];
  users: UserRecord[];
  members: MemberRecord[];
  teamMembers: TeamMemberRecord[];
  grants: GrantRecord[];
  collections: CollectionRecord[];
  spaces: SpaceRecord[];
  changeRequests: ChangeRequestRecord[];
  comments: CommentRecord[];
  replies: ReplyRecord[];
  reactions: ReactionRecord[];
  sites: SiteRecord[];
  sectionGroups: SectionGroupRecord[];
  sections: SectionRecord[];
  siteSpaces: SiteSpaceRecord[];
  shareLinks: ShareLinkRecord[];
  adaptiveSchemas: AdaptiveSchemaRecord[];
};

/** Times as Dates, whichever form the driver hands them in. */
function withDates<T>(rows: Record<string, unknown>[], columns: string[]): T[] {
  for (const row of rows) {
    for (const column of columns) {
      const value = row[column];
      if (value !== null && value !== undefined && !(value instanceof Date)) row[column] = new Date(value as string);
    }
  }
  return rows as T[];
}

export async function readSnapshot(em: EntityManager): Promise<Snapshot> {
  const connection = em.getConnection();
  const read = async <T>(statement: string, times: string[] = []) => withDates<T>(await connection.execute<Record<string, unknown>[]>(statement), times);
  return {
    organizations: await read<OrganizationRecord>(
      `select id, title, created_at as "createdAt", email_domains as "emailDomains", hostname, type, use_case as "useCase",
        community_type as "communityType", default_role as "defaultRole", default_content as "defaultContent", logo, sso, ai,
        invite_links as "inviteLinks", plan from organization`,
      ['createdAt'],
    ),
    users: await read<UserRecord>(`select id, email, display_name as "displayName", photo_url as "photoURL", instance_admin as "instanceAdmin" from app_user`),
    members: await read<MemberRecord>(`select organization_id as "organizationId", user_id as "userId", role, disabled from member`),
    teamMembers: await read<TeamMemberRecord>(`select team_id as "teamId", user_id as "userId", organization_id as "organizationId", role from team_member`),
    grants: await read<GrantRecord>(
      `select organization_id as "organizationId", space_id as "spaceId", collection_id as "collectionId", team_id as "teamId", user_id as "userId", role from content_grant`,
    ),
    collections: await read<CollectionRecord>(
      `select id, organization_id as "organizationId", parent_id as "parentId", title, description, default_level as "defaultLevel", position from collection`,
    ),
    spaces: await read<SpaceRecord>(
      `select id, organization_id as "organizationId", parent_id as "parentId", title, emoji, visibility, edit_mode as "editMode",
        default_level as "defaultLevel", position, revision, created_at as "createdAt", updated_at as "updatedAt", deleted_at as "deletedAt" from space`,
      ['createdAt', 'updatedAt', 'deletedAt'],
    ),
    changeRequests: await read<ChangeRequestRecord>(
      `select id, organization_id as "organizationId", space_id as "spaceId", number, status, subject, created_by as "createdBy", contributors,
        revision, revision_initial as "revisionInitial", revision_merged_ancestor as "revisionMergedAncestor", revision_merged as "revisionMerged",
        created_at as "createdAt", updated_at as "updatedAt" from change_request`,
      ['createdAt', 'updatedAt'],
    ),
    comments: await read<CommentRecord>(
      `select id, organization_id as "organizationId", space_id as "spaceId", change_request_id as "changeRequestId", posted_by as "postedBy",
        posted_at as "postedAt", edited_at as "editedAt", markdown, status, resolved_at as "resolvedAt", resolved_by as "resolvedBy", revision,
        node, node_preview as "nodePreview" from comment`,
      ['postedAt', 'editedAt', 'resolvedAt'],
    ),
    replies: await read<ReplyRecord>(
      `select id, organization_id as "organizationId", space_id as "spaceId", comment_id as "commentId", posted_by as "postedBy",
        posted_at as "postedAt", edited_at as "editedAt", markdown from comment_reply`,
      ['postedAt', 'editedAt'],
    ),
    reactions: await read<ReactionRecord>(
      `select comment_id as "commentId", target, "user" as "userId", emoji, reacted_at as "reactedAt" from comment_reaction`,
      ['reactedAt'],
    ),
    sites: await read<SiteRecord>(
      `select id, organization_id as "organizationId", type, title, hostname, basename, proxy_origin as "proxyOrigin", visibility, published,
        adaptive_content_enabled as "adaptiveContentEnabled", agents_context as "agentsContext", default_section as "defaultSection",
        default_site_space as "defaultSiteSpace", created_at as "createdAt" from site`,
      ['createdAt'],
    ),
    sectionGroups: await read<SectionGroupRecord>(
      `select id, organization_id as "organizationId", site_id as "siteId", title, icon, position from site_section_group`,
    ),
    sections: await read<SectionRecord>(
      `select id, organization_id as "organizationId", site_id as "siteId", section_group_id as "sectionGroupId", title, description, path,
        condition, icon, default_site_space as "defaultSiteSpace", position from site_section`,
    ),
    siteSpaces: await read<SiteSpaceRecord>(
      `select id, organization_id as "organizationId", site_id as "siteId", section_id as "sectionId", space_id as "spaceId", path, condition,
        position from site_space`,
    ),
    shareLinks: await read<ShareLinkRecord>(`select id, site_id as "siteId", name, key, active, created_at as "createdAt" from share_link`, ['createdAt']),
    adaptiveSchemas: await read<AdaptiveSchemaRecord>(
      `select site_id as "siteId", json_schema as "jsonSchema", updated_at as "updatedAt" from site_adaptive_schema`,
      ['updatedAt'],
    ),
  };
}
