import { isLeafType, isListType, isNonNullType, type GraphQLObjectType, type GraphQLOutputType, type GraphQLSchema } from 'graphql';
import type * as Schema from '../../../src/kernel/schema-types.generated.js';
import { atLeast, type AccessRules, type Role } from './access-rules.js';
import { plainArg, responseKey, type Args, type FieldSelection, type SelectionSet } from './selection.js';
import type {
  AdaptiveSchemaRecord,
  ChangeRequestRecord,
  CollectionRecord,
  CommentRecord,
  OrganizationRecord,
  ReactionRecord,
  ReplyRecord,
  SectionGroupRecord,
  SectionRecord,
  ShareLinkRecord,
  SiteRecord,
  SiteSpaceRecord,
  Snapshot,
  SpaceRecord,
  UserRecord,
} from './snapshot.js';

/**
 * The reference reader: what a GraphQL read of the organization/collection/space/change-request/comment
 * and site/section/site-space families should answer, computed deliberately simply from the snapshot's
 * rows (snapshot.ts), one field at a time, by the rules the documentation states:
 *
 * - a field of a row is its column; a count is the number of rows that the list of the same name would
 *   hold; a list is the rows of the child table whose foreign key names the parent, filtered to what the
 *   viewer may see (access-rules.ts), in the order the field documents, the first `limit` (50 when not
 *   given; outside 1..1000 a BAD_REQUEST), with `next` present exactly when rows are left over;
 * - a root field refuses as docs/permissions.md says (NOT_FOUND for what the viewer cannot see,
 *   FORBIDDEN below the role), and a refusal nulls the answer up to the nearest nullable field as
 *   GraphQL does;
 * - URLs follow the documented formulas: REST addresses under PUBLIC_URL (`location`), the app's under
 *   APP_URL (`app`), published sites under `PUBLIC_URL/sites/<id>` or `https://<hostname>`, plus the
 *   basename (docs/behaviour/sites.md).
 *
 * The rule tables are typed with the schema's generated types, so every field of every type it reaches
 * has a rule or a stated reason to be left out of the comparison (`skip`): a field added to the schema
 * fails the type check here until it is given one.
 */

export type ReferenceContext = {
  rows: Snapshot;
  access: AccessRules;
  /** The viewer's user row. */
  viewer: UserRecord;
  publicUrl: string;
  appUrl: string;
};

/** A refusal of a field: the code of the GraphQL error it answers with. */
export class Refusal {
  constructor(readonly code: 'NOT_FOUND' | 'FORBIDDEN' | 'BAD_REQUEST') {}
}

/** An object of the answer: its GraphQL type and how each of its fields is read. */
export class AnswerObject {
  constructor(
    readonly type: string,
    readonly field: (name: string, args: Args) => unknown,
  ) {}
}

type Rule<Row> = (row: Row, args: Args, ctx: ReferenceContext) => unknown;

/** A field the reference does not compare, with the reason. */
class Skipped {
  constructor(readonly reason: string) {}
}
const skip = (reason: string) => new Skipped(reason);
/** An ETag hashes the resource's REST answer: test/conditional-requests.test.ts checks it against the GET's. */
const ETAG_SKIPPED = skip('the hash of the REST representation, checked by conditional-requests.test.ts');

/** A rule for every field of the schema's type `T` (the generated type), reading rows of type `Row`. */
type RulesOf<T, Row> = { readonly [F in Exclude<keyof T, '__typename'>]-?: Rule<Row> | Skipped };

function objectOf<Row>(type: string, rules: Readonly<Record<string, Rule<Row> | Skipped>>, row: Row, ctx: ReferenceContext): AnswerObject {
  return new AnswerObject(type, (name, args) => {
    const rule = rules[name];
    if (!rule || rule instanceof Skipped) throw new Error(`The reference reads no ${type}.${name}${rule ? ` (${rule.reason})` : ''}`);
    return rule(row, args, ctx);
  });
}

/** An object whose fields are all leaves, given as they appear in the answer (every field of `T`). */
function valueOf<T>(type: string, values: Required<Omit<T, '__typename'>>): AnswerObject {
  const record = values as Record<string, unknown>;
  return new AnswerObject(type, (name) => {
    if (!(name in record)) throw new Error(`The reference reads no ${type}.${name}`);
    return record[name];
  });
}

// ─── small rules ────────────────────────────────────────────────────────────────────────────────────

const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

type SortKey = string | number;
function sortedBy<T>(rows: readonly T[], key: (row: T) => SortKey[], direction: 1 | -1 = 1): T[] {
  const compare = (a: SortKey[], b: SortKey[]) => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i] === b[i]) continue;
      if (a[i] === undefined) return -1;
      if (b[i] === undefined) return 1;
      return a[i] < b[i] ? -1 : 1;
    }
    return 0;
  };
  return [...rows].sort((x, y) => direction * compare(key(x), key(y)));
}
const byPosition = <T extends { position: string; id: string }>(rows: readonly T[]) => sortedBy(rows, (r) => [r.position, r.id]);

const PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;
/** What the reference answers for `next.page`: the cursor is opaque, so only its presence is compared. */
export const CURSOR = '<a cursor>';

type Page = { items: AnswerObject[]; count: number; more: boolean };

/** The first `limit` items of a list, its count, and whether a next page follows. */
function pageOf(type: string, items: AnswerObject[], args: Args, ctx: ReferenceContext): AnswerObject | Refusal {
  const limit = plainArg(args.limit) ?? PAGE_SIZE;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) return new Refusal('BAD_REQUEST');
  return objectOf<Page>(type, listRules, { items: items.slice(0, limit), count: items.length, more: items.length > limit }, ctx);
}

const listRules: RulesOf<Schema.SpaceList, Page> = {
  items: (p) => p.items,
  count: (p) => p.count,
  next: (p) => (p.more ? valueOf<Schema.PageRef>('PageRef', { page: CURSOR }) : null),
};

const find = <T extends { id: string }>(rows: readonly T[], id: string | null | undefined) => (id ? (rows.find((r) => r.id === id) ?? null) : null);

// ─── organizations, collections, spaces ────────────────────────────────────────────────────────────

const organization = (row: OrganizationRecord, ctx: ReferenceContext) => objectOf('Organization', organizationRules, row, ctx);
const collection = (row: CollectionRecord, ctx: ReferenceContext) => objectOf('Collection', collectionRules, row, ctx);
const space = (row: SpaceRecord, ctx: ReferenceContext) => objectOf('Space', spaceRules, row, ctx);
const user = (row: UserRecord, ctx: ReferenceContext) => objectOf('User', userRules, row, ctx);
const userById = (id: string, ctx: ReferenceContext) => user(find(ctx.rows.users, id)!, ctx);
const organizationById = (id: string, ctx: ReferenceContext) => organization(find(ctx.rows.organizations, id)!, ctx);

/** Collections of an organization that the viewer sees: depth first by position (tree order), or the top level only. */
function collectionsOfOrganization(organizationId: string, nested: boolean, ctx: ReferenceContext): CollectionRecord[] {
  const all = ctx.rows.collections.filter((c) => c.organizationId === organizationId);
  const inTreeOrder: CollectionRecord[] = [];
  const visit = (parentId: string | null) => {
    for (const child of byPosition(all.filter((c) => c.parentId === parentId))) {
      inTreeOrder.push(child);
      if (nested) visit(child.id);
    }
  };
  visit(null);
  return inTreeOrder.filter((c) => ctx.access.collectionRole(c) !== null);
}

/** Live spaces the viewer sees among `spaces`. */
const liveAndVisible = (spaces: SpaceRecord[], ctx: ReferenceContext) => spaces.filter((s) => s.deletedAt === null && ctx.access.spaceRole(s) !== null);

const organizationRules: RulesOf<Schema.Organization, OrganizationRecord> = {
  object: () => 'organization',
  etag: ETAG_SKIPPED,
  mergeRules: () => valueOf<Schema.MergeRules>('MergeRules', { type: 'none' }),
  id: (o) => o.id,
  title: (o) => o.title,
  createdAt: (o) => iso(o.createdAt),
  emailDomains: (o) => o.emailDomains,
  hostname: (o) => o.hostname,
  type: (o) => o.type,
  useCase: (o) => o.useCase,
  communityType: (o) => o.communityType,
  defaultRole: (o) => o.defaultRole,
  defaultContent: (o) => (o.defaultContent ? valueOf<Schema.SitePointer>('SitePointer', o.defaultContent) : null),
  sso: (o) => o.sso,
  ai: (o) => o.ai,
  inviteLinks: (o) => o.inviteLinks,
  plan: (o) => o.plan,
  urls: (o, _, ctx) =>
    valueOf<Schema.OrganizationUrls>('OrganizationUrls', { location: `${ctx.publicUrl}/v1/orgs/${o.id}`, app: `${ctx.appUrl}/o/${o.id}`, logo: o.logo }),
  // A self-hosted organization runs no trial and has no custom hostname.
  trial: () => valueOf<Schema.OrganizationTrial>('OrganizationTrial', { status: 'notapplicable', count: 0, endDate: null, decision: null }),
  customHostname: () => null,
  permissions: (o, _, ctx) => {
    const role = ctx.access.organizationRole(o.id);
    const member = role !== undefined;
    const admin = role === 'admin';
    const nonGuest = member && role !== null;
    return valueOf<Schema.OrganizationPermissions>('OrganizationPermissions', {
      view: member,
      admin,
      ownTeam: member && ctx.access.ownsATeam(o.id),
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
    });
  },
  viewerRole: (o, _, ctx) => ctx.access.organizationRole(o.id) ?? null,
  collections: (o, args, ctx) => collectionListOf(o, args, ctx),
  spaces: (o, args, ctx) => spaceListOf(o, args, ctx),
};

/** Collections the viewer can see, in tree order; `nested: false` keeps the top level only. */
const collectionListOf: Rule<OrganizationRecord> = (o, args, ctx) =>
  pageOf(
    'CollectionList',
    collectionsOfOrganization(o.id, args.nested !== false, ctx).map((c) => collection(c, ctx)),
    args,
    ctx,
  );

/** Live spaces the viewer can see, oldest first. */
const spaceListOf: Rule<OrganizationRecord> = (o, args, ctx) =>
  pageOf(
    'SpaceList',
    sortedBy(
      liveAndVisible(
        ctx.rows.spaces.filter((s) => s.organizationId === o.id),
        ctx,
      ),
      (s) => [s.createdAt.getTime(), s.id],
    ).map((s) => space(s, ctx)),
    args,
    ctx,
  );

const collectionRules: RulesOf<Schema.Collection, CollectionRecord> = {
  object: () => 'collection',
  etag: ETAG_SKIPPED,
  id: (c) => c.id,
  title: (c) => c.title,
  description: (c) => c.description,
  organization: (c) => c.organizationId,
  parent: (c) => c.parentId,
  defaultLevel: (c) => c.defaultLevel,
  urls: (c, _, ctx) =>
    valueOf<Schema.CollectionUrls>('CollectionUrls', {
      location: `${ctx.publicUrl}/v1/collections/${c.id}`,
      app: `${ctx.appUrl}/o/${c.organizationId}/c/${c.id}`,
    }),
  permissions: (c, _, ctx) => {
    const role = ctx.access.collectionRole(c);
    return valueOf<Schema.CollectionPermissions>('CollectionPermissions', {
      view: atLeast(role, 'read'),
      admin: atLeast(role, 'admin'),
      viewInviteLinks: atLeast(role, 'admin'),
      create: atLeast(role, 'create'),
    });
  },
  owningOrganization: (c, _, ctx) => organizationById(c.organizationId, ctx),
  // A visible item never reveals a hidden parent.
  parentCollection: (c, _, ctx) => {
    const parent = ctx.access.visibleCollection(c.parentId);
    return parent ? collection(parent, ctx) : null;
  },
  viewerRole: (c, _, ctx) => ctx.access.collectionRole(c),
  collections: (c, args, ctx) =>
    pageOf(
      'CollectionList',
      byPosition(ctx.rows.collections.filter((child) => child.parentId === c.id && ctx.access.collectionRole(child) !== null)).map((child) =>
        collection(child, ctx),
      ),
      args,
      ctx,
    ),
  spaces: (c, args, ctx) =>
    pageOf(
      'SpaceList',
      byPosition(
        liveAndVisible(
          ctx.rows.spaces.filter((s) => s.parentId === c.id),
          ctx,
        ),
      ).map((s) => space(s, ctx)),
      args,
      ctx,
    ),
};

/** What a role allows on a space (schema.graphql, SpacePermissions; the roles' order decides). */
const spacePermissions = (role: Role | null) =>
  valueOf<Schema.SpacePermissions>('SpacePermissions', {
    installIntegration: atLeast(role, 'admin'),
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    edit: atLeast(role, 'edit'),
    triggerGitSync: atLeast(role, 'edit'),
    comment: atLeast(role, 'comment'),
    merge: atLeast(role, 'review'),
    review: atLeast(role, 'review'),
  });

const changeRequestsOf = (spaceId: string, ctx: ReferenceContext) => ctx.rows.changeRequests.filter((c) => c.spaceId === spaceId);

/** A page of a space's change requests of the status `args` names (open by default), newest first. */
function changeRequestPage(space: SpaceRecord, args: Args, ctx: ReferenceContext) {
  const status = text(args, 'status') ?? 'open';
  const rows = sortedBy(
    changeRequestsOf(space.id, ctx).filter((c) => c.status === status),
    (c) => [c.number],
    -1,
  );
  return pageOf(
    'ChangeRequestList',
    rows.map((c) => changeRequest(c, ctx)),
    args,
    ctx,
  );
}
/** Open comments of a discussion: a space's own (no change request), or a change request's. */
const openComments = (spaceId: string, changeRequestId: string | null, ctx: ReferenceContext) =>
  ctx.rows.comments.filter((c) => c.spaceId === spaceId && c.changeRequestId === changeRequestId && c.status === 'open').length;

const spaceRules: RulesOf<Schema.Space, SpaceRecord> = {
  object: () => 'space',
  etag: ETAG_SKIPPED,
  mergeRules: () => valueOf<Schema.MergeRules>('MergeRules', { type: 'inherit' }),
  id: (s) => s.id,
  title: (s) => s.title,
  emoji: (s) => s.emoji ?? '',
  visibility: (s) => s.visibility,
  createdAt: (s) => iso(s.createdAt),
  updatedAt: (s) => iso(s.updatedAt),
  deletedAt: (s) => isoOrNull(s.deletedAt),
  editMode: (s) => s.editMode,
  urls: (s, _, ctx) => {
    const published = `${ctx.publicUrl}/s/${s.id}`;
    // `published` for every visibility but private, `public` only for public (spaces-and-collections.md).
    return valueOf<Schema.SpaceUrls>('SpaceUrls', {
      location: `${ctx.publicUrl}/v1/spaces/${s.id}`,
      app: `${ctx.appUrl}/o/${s.organizationId}/s/${s.id}`,
      published: s.visibility === 'private' ? null : published,
      public: s.visibility === 'public' ? published : null,
      icon: null,
    });
  },
  organization: (s) => s.organizationId,
  parent: (s) => s.parentId,
  revision: (s) => s.revision,
  defaultLevel: (s) => s.defaultLevel,
  comments: (s, _, ctx) => openComments(s.id, null, ctx),
  changeRequests: (s, _, ctx) => changeRequestsOf(s.id, ctx).length,
  // The root changeRequests list, nested: newest first, of one status (open by default); read role on the space.
  changeRequestList: (s, args, ctx) => (ctx.access.spaceRole(s) ? changeRequestPage(s, args, ctx) : new Refusal('FORBIDDEN')),
  changeRequestsOpen: (s, _, ctx) => changeRequestsOf(s.id, ctx).filter((c) => c.status === 'open').length,
  changeRequestsDraft: (s, _, ctx) => changeRequestsOf(s.id, ctx).filter((c) => c.status === 'draft').length,
  permissions: (s, _, ctx) => spacePermissions(ctx.access.spaceRole(s)),
  owningOrganization: (s, _, ctx) => organizationById(s.organizationId, ctx),
  parentCollection: (s, _, ctx) => {
    const parent = ctx.access.visibleCollection(s.parentId);
    return parent ? collection(parent, ctx) : null;
  },
  viewerRole: (s, _, ctx) => ctx.access.spaceRole(s),
  content: skip("a revision's pages and files are the content area's (and re-deriving them is a content reader of its own)"),
};

const userRules: RulesOf<Schema.User, UserRecord> = {
  object: () => 'user',
  etag: ETAG_SKIPPED,
  id: (u) => u.id,
  displayName: (u) => u.displayName,
  email: (u) => u.email,
  photoURL: (u) => u.photoURL,
  urls: (u, _, ctx) => valueOf<Schema.UserUrls>('UserUrls', { location: `${ctx.publicUrl}/v1/users/${u.id}` }),
  // Shown to the user themself and to instance administrators only.
  instanceAdmin: (u, _, ctx) => (ctx.viewer.id === u.id || ctx.viewer.instanceAdmin ? u.instanceAdmin : null),
};

// ─── change requests and comments ──────────────────────────────────────────────────────────────────

const changeRequest = (row: ChangeRequestRecord, ctx: ReferenceContext) => objectOf('ChangeRequest', changeRequestRules, row, ctx);
const comment = (row: CommentRecord, ctx: ReferenceContext) => objectOf('Comment', commentRules, row, ctx);
const reply = (row: ReplyRecord, ctx: ReferenceContext) => objectOf('CommentReply', replyRules, row, ctx);

const changeRequestRules: RulesOf<Schema.ChangeRequest, ChangeRequestRecord> = {
  object: () => 'change-request',
  etag: ETAG_SKIPPED,
  id: (c) => c.id,
  number: (c) => c.number,
  status: (c) => c.status,
  subject: (c) => c.subject,
  createdBy: (c, _, ctx) => userById(c.createdBy, ctx),
  createdAt: (c) => iso(c.createdAt),
  updatedAt: (c) => iso(c.updatedAt),
  revision: (c) => c.revision,
  revisionInitial: (c) => c.revisionInitial,
  revisionMergedAncestor: (c) => c.revisionMergedAncestor,
  revisionMerged: (c) => c.revisionMerged,
  comments: (c, _, ctx) => openComments(c.spaceId, c.id, ctx),
  // The root comments list of the change request's discussion, nested: newest first, all statuses.
  commentList: (c, args, ctx) => {
    const space = find(ctx.rows.spaces, c.spaceId)!;
    if (!ctx.access.spaceRole(space)) return new Refusal('FORBIDDEN');
    const rows = sortedBy(commentsOfDiscussion({ space, changeRequestId: c.id }, ctx), (row) => [row.postedAt.getTime(), row.id], -1);
    return pageOf(
      'CommentList',
      rows.map((row) => comment(row, ctx)),
      args,
      ctx,
    );
  },
  // The main content moved since the change request's base: its start, or the revision its last update brought in.
  outdated: (c, _, ctx) => c.status !== 'merged' && find(ctx.rows.spaces, c.spaceId)!.revision !== (c.revisionMergedAncestor ?? c.revisionInitial),
  urls: (c, _, ctx) =>
    valueOf<Schema.ChangeRequestUrls>('ChangeRequestUrls', {
      location: `${ctx.publicUrl}/v1/spaces/${c.spaceId}/change-requests/${c.id}`,
      app: `${ctx.appUrl}/o/${c.organizationId}/s/${c.spaceId}/~/changes/${c.number}`,
    }),
  spaceId: (c) => c.spaceId,
  space: (c, _, ctx) => space(find(ctx.rows.spaces, c.spaceId)!, ctx),
  contributors: (c, _, ctx) => c.contributors.map((id) => userById(id, ctx)),
  content: skip("a revision's pages and files are the content area's"),
};

/** The reactions to a comment or a reply: by emoji in the order each was first used, with who reacted and when. */
function reactionsTo(commentId: string, targetId: string, ctx: ReferenceContext): AnswerObject[] {
  const reactions = sortedBy(
    ctx.rows.reactions.filter((r) => r.commentId === commentId && r.target === targetId),
    (r) => [r.reactedAt.getTime()],
  );
  const emojis = [...new Set(reactions.map((r) => r.emoji))];
  return emojis.map((emoji) =>
    objectOf<ReactionRecord[]>(
      'EmojiReaction',
      emojiReactionRules,
      reactions.filter((r) => r.emoji === emoji),
      ctx,
    ),
  );
}

const emojiReactionRules: RulesOf<Schema.EmojiReaction, ReactionRecord[]> = {
  emoji: (rs) => rs[0].emoji,
  count: (rs) => rs.length,
  users: (rs, _, ctx) => rs.map((r) => objectOf('CommentReactionUser', reactionUserRules, r, ctx)),
};

const reactionUserRules: RulesOf<Schema.CommentReactionUser, ReactionRecord> = {
  user: (r, _, ctx) => userById(r.userId, ctx),
  reactedAt: (r) => iso(r.reactedAt),
};

/** What the viewer may do with a comment or reply of the space (docs/behaviour/comments.md). */
function discussionPermissions(spaceId: string, author: string, ctx: ReferenceContext) {
  const role = ctx.access.spaceRole(find(ctx.rows.spaces, spaceId)!);
  const isAuthor = author === ctx.viewer.id;
  return valueOf<Schema.CommentPermissions>('CommentPermissions', {
    view: atLeast(role, 'read'),
    edit: isAuthor && atLeast(role, 'comment'),
    reply: atLeast(role, 'comment'),
    react: atLeast(role, 'comment'),
    delete: (isAuthor && atLeast(role, 'comment')) || atLeast(role, 'admin'),
  });
}

const commentLocation = (c: CommentRecord, ctx: ReferenceContext) =>
  `${ctx.publicUrl}/v1/spaces/${c.spaceId}${c.changeRequestId ? `/change-requests/${c.changeRequestId}` : ''}/comments/${c.id}`;

/** A body in the default format (markdown); the document format is left out (see the selections). */
const markdownBody = (markdown: string) => valueOf<Schema.CommentBody>('CommentBody', { markdown, document: null });

const repliesOf = (commentId: string, ctx: ReferenceContext) =>
  sortedBy(
    ctx.rows.replies.filter((r) => r.commentId === commentId),
    (r) => [r.postedAt.getTime(), r.id],
  );

const commentRules: RulesOf<Schema.Comment, CommentRecord> = {
  object: () => 'comment',
  etag: ETAG_SKIPPED,
  id: (c) => c.id,
  postedBy: (c, _, ctx) => userById(c.postedBy, ctx),
  postedAt: (c) => iso(c.postedAt),
  editedAt: (c) => isoOrNull(c.editedAt),
  reactions: (c, _, ctx) => reactionsTo(c.id, c.id, ctx),
  replies: (c, _, ctx) => repliesOf(c.id, ctx).length,
  body: (c) => markdownBody(c.markdown),
  target: (c, _, ctx) => objectOf('CommentTarget', commentTargetRules, c, ctx),
  urls: (c, _, ctx) => valueOf<Schema.CommentUrls>('CommentUrls', { location: commentLocation(c, ctx) }),
  permissions: (c, _, ctx) => discussionPermissions(c.spaceId, c.postedBy, ctx),
  status: (c) => c.status,
  resolvedAt: (c) => isoOrNull(c.resolvedAt),
  resolvedBy: (c, _, ctx) => (c.resolvedBy ? userById(c.resolvedBy, ctx) : null),
  // "The replies themselves, oldest first" (ties by id, as every list of this server breaks them).
  replyItems: (c, _, ctx) => repliesOf(c.id, ctx).map((r) => reply(r, ctx)),
};

const commentTargetRules: RulesOf<Schema.CommentTarget, CommentRecord> = {
  node: (c) => (c.node ? valueOf<Schema.CommentTargetNode>('CommentTargetNode', { id: c.node, preview: c.nodePreview }) : null),
  changeRequest: (c) => c.changeRequestId,
  review: () => null,
  page: skip("the targeted page as it stands now is read from the content's page tree (the content area's)"),
  space: (c) => c.spaceId,
  revision: (c) => c.revision,
};

const replyRules: RulesOf<Schema.CommentReply, ReplyRecord> = {
  object: () => 'comment-reply',
  etag: ETAG_SKIPPED,
  id: (r) => r.id,
  postedBy: (r, _, ctx) => userById(r.postedBy, ctx),
  postedAt: (r) => iso(r.postedAt),
  editedAt: (r) => isoOrNull(r.editedAt),
  reactions: (r, _, ctx) => reactionsTo(r.commentId, r.id, ctx),
  body: (r) => markdownBody(r.markdown),
  urls: (r, _, ctx) =>
    valueOf<Schema.CommentUrls>('CommentUrls', { location: `${commentLocation(find(ctx.rows.comments, r.commentId)!, ctx)}/replies/${r.id}` }),
  permissions: (r, _, ctx) => discussionPermissions(r.spaceId, r.postedBy, ctx),
  comment: (r, _, ctx) => comment(find(ctx.rows.comments, r.commentId)!, ctx),
};

// ─── sites ──────────────────────────────────────────────────────────────────────────────────────────

const site = (row: SiteRecord, ctx: ReferenceContext) => objectOf('Site', siteRules, row, ctx);
const section = (row: SectionRecord, ctx: ReferenceContext) => objectOf('SiteSection', sectionRules, row, ctx);
const sectionGroup = (row: SectionGroupRecord, ctx: ReferenceContext) => objectOf('SiteSectionGroup', sectionGroupRules, row, ctx);
const siteSpace = (row: SiteSpaceRecord, ctx: ReferenceContext) => objectOf('SiteSpace', siteSpaceRules, row, ctx);
const siteById = (id: string, ctx: ReferenceContext) => find(ctx.rows.sites, id)!;

/** Where the site's published content lives (docs/behaviour/sites.md, "Published URLs"). */
const siteBaseUrl = (s: SiteRecord, ctx: ReferenceContext) =>
  `${s.hostname ? `https://${s.hostname}` : `${ctx.publicUrl}/sites/${s.id}`}${s.basename ? `/${s.basename}` : ''}`;

const sectionsOf = (siteId: string, ctx: ReferenceContext) => ctx.rows.sections.filter((s) => s.siteId === siteId);
const groupsOf = (siteId: string, ctx: ReferenceContext) => ctx.rows.sectionGroups.filter((g) => g.siteId === siteId);
const siteSpacesOf = (siteId: string, ctx: ReferenceContext) => ctx.rows.siteSpaces.filter((s) => s.siteId === siteId);
const siteSpacesIn = (siteId: string, sectionId: string | null, ctx: ReferenceContext) =>
  byPosition(siteSpacesOf(siteId, ctx).filter((s) => s.sectionId === sectionId));

/**
 * A section's place in the site's navigation: top-level items (sections outside groups, and groups) by
 * position, a group's sections by position at the group's place.
 */
function sectionNavigationKey(s: SectionRecord, ctx: ReferenceContext): string[] {
  const group = find(ctx.rows.sectionGroups, s.sectionGroupId);
  return group ? [group.position, group.id, s.position, s.id] : [s.position, s.id];
}
const sectionsInNavigationOrder = (siteId: string, ctx: ReferenceContext) => sortedBy(sectionsOf(siteId, ctx), (s) => sectionNavigationKey(s, ctx));

/** Site spaces in navigation order: the root level's first, then section by section, each by position. */
function siteSpacesInNavigationOrder(siteId: string, ctx: ReferenceContext): SiteSpaceRecord[] {
  return sortedBy(siteSpacesOf(siteId, ctx), (ss) => {
    const sectionOf = find(ctx.rows.sections, ss.sectionId);
    const sectionKey = sectionOf ? sectionNavigationKey(sectionOf, ctx) : [];
    return [...sectionKey, ...Array<string>(4 - sectionKey.length).fill(''), ss.position, ss.id];
  });
}

/** The default of its section (or of the site's root level): the one the section (or site) names. */
function isDefaultSiteSpace(ss: SiteSpaceRecord, ctx: ReferenceContext): boolean {
  const named = ss.sectionId ? find(ctx.rows.sections, ss.sectionId)?.defaultSiteSpace : siteById(ss.siteId, ctx).defaultSiteSpace;
  return named === ss.id;
}

/** The site's default section: the one it names, else the first in navigation order; none without sections. */
const defaultSection = (s: SiteRecord, ctx: ReferenceContext) =>
  sectionsOf(s.id, ctx).find((x) => x.id === s.defaultSection) ?? sectionsInNavigationOrder(s.id, ctx)[0] ?? null;

/** A section's default site space: the one it names, else its first. */
function sectionDefaultSiteSpace(s: SectionRecord, ctx: ReferenceContext): SiteSpaceRecord | null {
  const candidates = siteSpacesIn(s.siteId, s.id, ctx);
  return candidates.find((ss) => ss.id === s.defaultSiteSpace) ?? candidates[0] ?? null;
}

/** Only admins of a site list its share links (they carry secret keys). */
const readsShareLinks = (s: SiteRecord, ctx: ReferenceContext) => ctx.access.organizationRole(s.organizationId) === 'admin';

type Structure = { type: string; items: AnswerObject[] };

/** Every section of the site in navigation order. */
const sectionListOf: Rule<SiteRecord> = (s, args, ctx) =>
  pageOf(
    'SiteSectionList',
    sectionsInNavigationOrder(s.id, ctx).map((x) => section(x, ctx)),
    args,
    ctx,
  );

/** The site's section groups by position. */
const sectionGroupListOf: Rule<SiteRecord> = (s, args, ctx) =>
  pageOf(
    'SiteSectionGroupList',
    byPosition(groupsOf(s.id, ctx)).map((g) => sectionGroup(g, ctx)),
    args,
    ctx,
  );

/** The site's site spaces in navigation order; `default` keeps the defaults (true) or the others (false). */
const siteSpaceListOf: Rule<SiteRecord> = (s, args, ctx) => {
  const wanted = plainArg(args.default);
  const rows = siteSpacesInNavigationOrder(s.id, ctx).filter((ss) => wanted === undefined || isDefaultSiteSpace(ss, ctx) === wanted);
  return pageOf(
    'SiteSpaceList',
    rows.map((ss) => siteSpace(ss, ctx)),
    args,
    ctx,
  );
};

const siteRules: RulesOf<Schema.Site, SiteRecord> = {
  object: () => 'site',
  etag: ETAG_SKIPPED,
  id: (s) => s.id,
  type: (s) => s.type,
  title: (s) => s.title,
  hostname: (s) => s.hostname,
  basename: (s) => s.basename,
  proxy: (s, _, ctx) => (s.proxyOrigin ? valueOf<Schema.SiteProxy>('SiteProxy', { origin: s.proxyOrigin, target: siteBaseUrl(s, ctx) }) : null),
  visibility: (s) => s.visibility,
  published: (s) => s.published,
  siteSpaces: (s, _, ctx) => siteSpacesOf(s.id, ctx).length,
  createdAt: (s) => iso(s.createdAt),
  adaptiveContent: (s) => valueOf<Schema.SiteAdaptiveContent>('SiteAdaptiveContent', { enabled: s.adaptiveContentEnabled }),
  // No ads programme, and no feature gated by plan, on a self-hosted server (sites.md).
  ads: () => null,
  agentsContext: (s) => s.agentsContext,
  features: () => [],
  urls: (s, _, ctx) =>
    valueOf<Schema.SiteUrls>('SiteUrls', {
      location: `${ctx.publicUrl}/v1/orgs/${s.organizationId}/sites/${s.id}`,
      app: `${ctx.appUrl}/o/${s.organizationId}/sites/${s.id}`,
      published: s.published ? siteBaseUrl(s, ctx) : null,
    }),
  owningOrganization: (s, _, ctx) => organizationById(s.organizationId, ctx),
  // With sections: the top-level sections and the groups by position; without: the root-level site spaces by position.
  structure: (s, _, ctx) => {
    const sections = sectionsOf(s.id, ctx);
    const structure: Structure =
      sections.length > 0
        ? {
            type: 'sections',
            items: byPosition([
              ...sections.filter((x) => !x.sectionGroupId).map((x) => ({ position: x.position, id: x.id, item: section(x, ctx) })),
              ...groupsOf(s.id, ctx).map((g) => ({ position: g.position, id: g.id, item: sectionGroup(g, ctx) })),
            ]).map(({ item }) => item),
          }
        : { type: 'siteSpaces', items: siteSpacesIn(s.id, null, ctx).map((ss) => siteSpace(ss, ctx)) };
    return objectOf<Structure>('SiteStructure', siteStructureRules, structure, ctx);
  },
  sections: (s, args, ctx) => sectionListOf(s, args, ctx),
  sectionGroups: (s, args, ctx) => sectionGroupListOf(s, args, ctx),
  siteSpaceList: (s, args, ctx) => siteSpaceListOf(s, args, ctx),
  defaultSiteSection: (s, _, ctx) => {
    const found = defaultSection(s, ctx);
    return found ? section(found, ctx) : null;
  },
  // With sections, the default of the default section; without, the root-level one the site names, else the first.
  defaultSiteSpace: (s, _, ctx) => {
    const inSection = defaultSection(s, ctx);
    const candidates = siteSpacesIn(s.id, inSection?.id ?? null, ctx);
    const named = inSection ? inSection.defaultSiteSpace : s.defaultSiteSpace;
    const found = candidates.find((ss) => ss.id === named) ?? candidates[0] ?? null;
    return found ? siteSpace(found, ctx) : null;
  },
  shareLinks: (s, args, ctx) => {
    if (!readsShareLinks(s, ctx)) return new Refusal('FORBIDDEN');
    const links = sortedBy(
      ctx.rows.shareLinks.filter((l) => l.siteId === s.id),
      (l) => [l.createdAt.getTime(), l.id],
    );
    return pageOf(
      'ShareLinkList',
      links.map((l) => objectOf('ShareLink', shareLinkRules, l, ctx)),
      args,
      ctx,
    );
  },
  adaptiveSchema: (s, _, ctx) => {
    const schema = ctx.rows.adaptiveSchemas.find((a) => a.siteId === s.id);
    return schema ? objectOf('SiteAdaptiveSchema', adaptiveSchemaRules, schema, ctx) : null;
  },
};

const siteStructureRules: RulesOf<Schema.SiteStructure, Structure> = {
  type: (s) => s.type,
  structure: (s) => s.items,
};

const adaptiveSchemaRules: RulesOf<Schema.SiteAdaptiveSchema, AdaptiveSchemaRecord> = {
  object: () => 'site-adaptive-schema',
  etag: ETAG_SKIPPED,
  jsonSchema: (a) => a.jsonSchema,
  updatedAt: (a) => iso(a.updatedAt),
};

const shareLinkRules: RulesOf<Schema.ShareLink, ShareLinkRecord> = {
  object: () => 'share-link',
  id: (l) => l.id,
  createdAt: (l) => iso(l.createdAt),
  name: (l) => l.name,
  active: (l) => l.active,
  // A share link's URL carries its key.
  urls: (l, _, ctx) =>
    valueOf<Schema.SitePublishedUrls>('SitePublishedUrls', { published: `${siteBaseUrl(siteById(l.siteId, ctx), ctx)}?shareKey=${encodeURIComponent(l.key)}` }),
};

const sectionRules: RulesOf<Schema.SiteSection, SectionRecord> = {
  object: () => 'site-section',
  draft: () => false,
  id: (s) => s.id,
  title: (s) => s.title,
  description: (s) => s.description,
  default: (s, _, ctx) => siteById(s.siteId, ctx).defaultSection === s.id,
  path: (s) => s.path,
  condition: (s) => s.condition,
  sectionGroup: (s) => s.sectionGroupId,
  siteSpaces: (s, _, ctx) => siteSpacesIn(s.siteId, s.id, ctx).map((ss) => siteSpace(ss, ctx)),
  urls: (s, _, ctx) => {
    const ofSite = siteById(s.siteId, ctx);
    return valueOf<Schema.SiteItemUrls>('SiteItemUrls', {
      location: `${ctx.publicUrl}/v1/orgs/${s.organizationId}/sites/${s.siteId}/sections/${s.id}`,
      published: ofSite.published ? `${siteBaseUrl(ofSite, ctx)}/${s.path}` : null,
    });
  },
  icon: (s) => s.icon,
  site: (s, _, ctx) => site(siteById(s.siteId, ctx), ctx),
  group: (s, _, ctx) => {
    const group = find(ctx.rows.sectionGroups, s.sectionGroupId);
    return group ? sectionGroup(group, ctx) : null;
  },
  defaultSiteSpace: (s, _, ctx) => {
    const found = sectionDefaultSiteSpace(s, ctx);
    return found ? siteSpace(found, ctx) : null;
  },
};

const sectionGroupRules: RulesOf<Schema.SiteSectionGroup, SectionGroupRecord> = {
  object: () => 'site-section-group',
  id: (g) => g.id,
  title: (g) => g.title,
  sections: (g, _, ctx) => byPosition(ctx.rows.sections.filter((s) => s.sectionGroupId === g.id)).map((s) => section(s, ctx)),
  children: (g, _, ctx) => byPosition(ctx.rows.sections.filter((s) => s.sectionGroupId === g.id)).map((s) => section(s, ctx)),
  draft: () => false,
  icon: (g) => g.icon,
  site: (g, _, ctx) => site(siteById(g.siteId, ctx), ctx),
};

const siteSpaceRules: RulesOf<Schema.SiteSpace, SiteSpaceRecord> = {
  object: () => 'site-space',
  draft: () => false,
  id: (ss) => ss.id,
  path: (ss) => ss.path,
  section: (ss) => ss.sectionId,
  // A site publishes the space: whoever reads the site sees it, whatever their own role on the space
  // (the server's current rule; docs/behaviour/sites.md does not say otherwise).
  space: (ss, _, ctx) => space(find(ctx.rows.spaces, ss.spaceId)!, ctx),
  title: (ss, _, ctx) => find(ctx.rows.spaces, ss.spaceId)?.title ?? '',
  default: (ss, _, ctx) => isDefaultSiteSpace(ss, ctx),
  condition: (ss) => ss.condition,
  hasAdvancedCustomizationFeature: () => false,
  urls: (ss, _, ctx) => {
    const ofSite = siteById(ss.siteId, ctx);
    const inSection = find(ctx.rows.sections, ss.sectionId);
    const base = siteBaseUrl(ofSite, ctx);
    return valueOf<Schema.SiteItemUrls>('SiteItemUrls', {
      location: `${ctx.publicUrl}/v1/orgs/${ss.organizationId}/sites/${ss.siteId}/site-spaces/${ss.id}`,
      published: ofSite.published ? `${inSection ? `${base}/${inSection.path}` : base}/${ss.path}` : null,
    });
  },
  site: (ss, _, ctx) => site(siteById(ss.siteId, ctx), ctx),
  siteSection: (ss, _, ctx) => {
    const inSection = find(ctx.rows.sections, ss.sectionId);
    return inSection && inSection.siteId === ss.siteId ? section(inSection, ctx) : null;
  },
};

// ─── root fields ───────────────────────────────────────────────────────────────────────────────────

const NOT_FOUND = new Refusal('NOT_FOUND');
const text = (args: Args, name: string) => {
  const value = plainArg(args[name]);
  return value === undefined ? undefined : String(value);
};

/** A space a root field names, when the viewer may read it (docs/permissions.md: `read` on the space). */
function readableSpace(args: Args, ctx: ReferenceContext): SpaceRecord | null {
  const found = find(ctx.rows.spaces, text(args, 'spaceId') ?? text(args, 'id'));
  return found && ctx.access.readsSpace(found) ? found : null;
}

/** A change request of the space, by id or by its number in the space. */
function changeRequestIn(spaceId: string, ref: string, ctx: ReferenceContext): ChangeRequestRecord | null {
  const byId = ctx.rows.changeRequests.find((c) => c.id === ref && c.spaceId === spaceId);
  if (byId) return byId;
  return /^[1-9]\d{0,9}$/.test(ref) ? (ctx.rows.changeRequests.find((c) => c.spaceId === spaceId && c.number === Number(ref)) ?? null) : null;
}

/** The discussion a root field names: a readable space's own, or one of its change requests'. */
function discussion(args: Args, ctx: ReferenceContext): { space: SpaceRecord; changeRequestId: string | null } | null {
  const readable = readableSpace(args, ctx);
  if (!readable) return null;
  const ref = text(args, 'changeRequestId');
  if (!ref) return { space: readable, changeRequestId: null };
  const found = changeRequestIn(readable.id, ref, ctx);
  return found ? { space: readable, changeRequestId: found.id } : null;
}
const commentsOfDiscussion = (d: { space: SpaceRecord; changeRequestId: string | null }, ctx: ReferenceContext) =>
  ctx.rows.comments.filter((c) => c.spaceId === d.space.id && c.changeRequestId === d.changeRequestId);

/** A site a root field names, when the viewer may read it: a non-guest member of its organization. */
function readableSite(args: Args, ctx: ReferenceContext): SiteRecord | null {
  const found = find(ctx.rows.sites, text(args, 'siteId') ?? text(args, 'id'));
  return found && ctx.access.organizationRole(found.organizationId) ? found : null;
}

/** An organization a root field names, when the viewer is a member (guests included). */
function memberOrganization(args: Args, ctx: ReferenceContext): OrganizationRecord | null {
  const found = find(ctx.rows.organizations, text(args, 'organizationId') ?? text(args, 'id'));
  return found && ctx.access.isMember(found.id) ? found : null;
}

/** The root fields the random selections start from, with their guards. */
export const ROOT_RULES: Readonly<Record<string, Rule<null>>> = {
  organization: (_, args, ctx) => {
    const found = memberOrganization(args, ctx);
    return found ? organization(found, ctx) : NOT_FOUND;
  },
  collections: (_, args, ctx) => {
    const found = memberOrganization(args, ctx);
    return found ? collectionListOf(found, args, ctx) : NOT_FOUND;
  },
  spaces: (_, args, ctx) => {
    const found = memberOrganization(args, ctx);
    return found ? spaceListOf(found, args, ctx) : NOT_FOUND;
  },
  collection: (_, args, ctx) => {
    const found = find(ctx.rows.collections, text(args, 'id'));
    return found && ctx.access.collectionRole(found) !== null ? collection(found, ctx) : NOT_FOUND;
  },
  space: (_, args, ctx) => {
    const found = readableSpace(args, ctx);
    return found ? space(found, ctx) : NOT_FOUND;
  },
  changeRequests: (_, args, ctx) => {
    const found = readableSpace(args, ctx);
    return found ? changeRequestPage(found, args, ctx) : NOT_FOUND;
  },
  changeRequest: (_, args, ctx) => {
    const found = readableSpace(args, ctx);
    const changeRequestFound = found ? changeRequestIn(found.id, text(args, 'changeRequestId')!, ctx) : null;
    return changeRequestFound ? changeRequest(changeRequestFound, ctx) : NOT_FOUND;
  },
  // Newest first by default (`order`), all statuses by default (`status`).
  comments: (_, args, ctx) => {
    const found = discussion(args, ctx);
    if (!found) return NOT_FOUND;
    const status = text(args, 'status') ?? 'all';
    const rows = commentsOfDiscussion(found, ctx).filter((c) => status === 'all' || c.status === status);
    const ordered = sortedBy(rows, (c) => [c.postedAt.getTime(), c.id], text(args, 'order') === 'asc' ? 1 : -1);
    return pageOf(
      'CommentList',
      ordered.map((c) => comment(c, ctx)),
      args,
      ctx,
    );
  },
  commentReplies: (_, args, ctx) => {
    const found = discussion(args, ctx);
    const commentFound = found ? find(commentsOfDiscussion(found, ctx), text(args, 'commentId')) : null;
    if (!commentFound) return NOT_FOUND;
    return pageOf(
      'CommentReplyList',
      repliesOf(commentFound.id, ctx).map((r) => reply(r, ctx)),
      args,
      ctx,
    );
  },
  site: (_, args, ctx) => {
    const found = readableSite(args, ctx);
    return found ? site(found, ctx) : NOT_FOUND;
  },
  // `read` on the organization: a guest is a member below that role (403), an outsider sees nothing (404).
  sites: (_, args, ctx) => {
    const found = memberOrganization(args, ctx);
    if (!found) return NOT_FOUND;
    if (!ctx.access.organizationRole(found.id)) return new Refusal('FORBIDDEN');
    const sites = sortedBy(
      ctx.rows.sites.filter((s) => s.organizationId === found.id),
      (s) => [s.createdAt.getTime(), s.id],
    );
    return pageOf(
      'SiteList',
      sites.map((s) => site(s, ctx)),
      args,
      ctx,
    );
  },
  siteSections: (_, args, ctx) => {
    const found = readableSite(args, ctx);
    return found ? sectionListOf(found, args, ctx) : NOT_FOUND;
  },
  siteSectionGroups: (_, args, ctx) => {
    const found = readableSite(args, ctx);
    return found ? sectionGroupListOf(found, args, ctx) : NOT_FOUND;
  },
  siteSpaces: (_, args, ctx) => {
    const found = readableSite(args, ctx);
    return found ? siteSpaceListOf(found, args, ctx) : NOT_FOUND;
  },
};

// ─── what the selections may ask for ───────────────────────────────────────────────────────────────

/** Every composite type the reference answers with a rule table (the others it answers are all leaves: `valueOf`). */
const RULE_TABLES: Readonly<Record<string, Readonly<Record<string, Rule<never> | Skipped>>>> = {
  Organization: organizationRules,
  Collection: collectionRules,
  Space: spaceRules,
  User: userRules,
  ChangeRequest: changeRequestRules,
  Comment: commentRules,
  CommentTarget: commentTargetRules,
  CommentReply: replyRules,
  EmojiReaction: emojiReactionRules,
  CommentReactionUser: reactionUserRules,
  Site: siteRules,
  SiteStructure: siteStructureRules,
  SiteAdaptiveSchema: adaptiveSchemaRules,
  ShareLink: shareLinkRules,
  SiteSection: sectionRules,
  SiteSectionGroup: sectionGroupRules,
  SiteSpace: siteSpaceRules,
};

/** Why the reference leaves a field out of the comparison, when it does. */
export function skippedBecause(type: string, field: string): string | undefined {
  const rule = RULE_TABLES[type]?.[field];
  return rule instanceof Skipped ? rule.reason : undefined;
}

// ─── executing a selection ─────────────────────────────────────────────────────────────────────────

export type ErrorAt = { path: (string | number)[]; code: string };
export type Answer = { data: Record<string, unknown> | null; errors: ErrorAt[] };

/** A null on its way up to the nearest nullable position (a non-null field could not be answered). */
const BUBBLE = new Error('a null bubbling up to the nearest nullable position');

/**
 * What GraphQL answers for the selection, field by field from the rules: a refusal is an error at the
 * field's path and a null, which a non-null type passes up to the nearest nullable position. Every
 * field is read, also beside one that nulled its parent, so that every error the server could report
 * is among the reference's.
 */
export function referenceAnswer(schema: GraphQLSchema, roots: FieldSelection[], ctx: ReferenceContext): Answer {
  const errors: ErrorAt[] = [];

  const complete = (type: GraphQLOutputType, value: unknown, selection: SelectionSet | undefined, path: (string | number)[]): unknown => {
    if (value instanceof Refusal) {
      errors.push({ path, code: value.code });
      value = null;
    }
    if (isNonNullType(type)) {
      const completed = complete(type.ofType, value, selection, path);
      if (completed === null) throw BUBBLE;
      return completed;
    }
    try {
      if (value === null || value === undefined) return null;
      if (isListType(type)) {
        if (!Array.isArray(value)) throw new Error(`${path.join('.')}: the reference answered no list`);
        return settle(value.map((item, i) => attempt(() => complete(type.ofType, item, selection, [...path, i]))));
      }
      if (isLeafType(type)) return value;
      if (!(value instanceof AnswerObject) || !selection) throw new Error(`${path.join('.')}: the reference answered no object`);
      return execute(value, selection, path);
    } catch (caught) {
      if (caught === BUBBLE) return null;
      throw caught;
    }
  };

  /** The value, or BUBBLE when it nulled its position. */
  const attempt = (work: () => unknown): unknown => {
    try {
      return work();
    } catch (caught) {
      if (caught === BUBBLE) return BUBBLE;
      throw caught;
    }
  };
  /** Values read side by side: a bubble among them nulls them all, once they have all been read. */
  function settle<T>(values: T[]): T[] {
    if (values.includes(BUBBLE as T)) throw BUBBLE;
    return values;
  }

  const execute = (object: AnswerObject, selection: SelectionSet, path: (string | number)[]): Record<string, unknown> => {
    const type = schema.getType(object.type) as GraphQLObjectType;
    const fields = [...selection.fields, ...selection.fragments.filter((f) => f.on === object.type).flatMap((f) => f.selection.fields)];
    const answered = fields.map((field) => {
      const key = responseKey(field);
      if (field.field === '__typename') return [key, object.type] as const;
      const definition = type.getFields()[field.field];
      return [key, attempt(() => complete(definition.type, object.field(field.field, field.args), field.selection, [...path, key]))] as const;
    });
    settle(answered.map(([, value]) => value));
    return Object.fromEntries(answered);
  };

  const query = new AnswerObject('Query', (name, args) => {
    const rule = ROOT_RULES[name];
    if (!rule) throw new Error(`The reference reads no Query.${name}`);
    return rule(null, args, ctx);
  });
  const data = attempt(() => execute(query, { fields: roots, fragments: [] }, []));
  return { data: data === BUBBLE ? null : (data as Record<string, unknown>), errors };
}
