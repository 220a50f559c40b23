import { randomBytes } from 'node:crypto';
import sql, { empty } from 'sql-template-tag';
import { creationOrder } from '../../db/creation-order.js';
import { readPage } from '../../db/pages.js';
import { rank, type Role } from '../../kernel/roles.js';
import type { Context } from '../../kernel/context.js';
import { badRequest, forbidden, notFound } from '../../kernel/errors.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import { CreateInviteLinkInput, UpdateInviteLinkInput } from './inputs.js';
import { collectionInOrganization } from '../collections/index.js';
import { putGrant } from '../grants/index.js';
import { Member, type MemberRow } from '../organizations/index.js';
import { recordEvent } from '../../events/record.js';
import { ContentGrant } from '../grants/index.js';
import { grantPayload, grantTarget } from '../grants/index.js';
import { joinAsMember, memberPayload, memberTarget } from '../organizations/index.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { LeavingContent } from '../../kernel/area.js';
import { InviteLink, type InviteLinkRow, type InviteLinkEntity } from './entities.js';
import { inviteFingerprint, invitePayload, inviteTarget } from './events.js';

/** 24 random bytes (192 bits), base64url: the link's id is its secret, as the reference joins by invite id. */
function newInviteId(): string {
  return randomBytes(24).toString('base64url');
}

const isContentLink = (link: InviteLinkRow) => !!(link.space || link.collection);

/** The invite link `inviteId` of the organization, or 404. */
export async function inviteLinkOf(ctx: Context, organizationId: string, inviteId: string): Promise<InviteLinkEntity> {
  const link = await ctx.loaders.inviteLink.load(inviteId);
  if (!link || link.organization !== organizationId) throw notFound('Invite link');
  return link;
}

/** The links of each target (`inviteLinks(to:)`). */
const LINKS_TO = {
  ORGANIZATION: sql` and i.space_id is null and i.collection_id is null`,
  SPACE: sql` and i.space_id is not null`,
  COLLECTION: sql` and i.collection_id is not null`,
};

/** Invite links of the organization (to one kind of target with `to`), oldest first; one page read in SQL. */
export async function listInviteLinks(ctx: Context, organizationId: string, filters: { to?: keyof typeof LINKS_TO | null }, args: PageArgs) {
  const to = filters.to ? LINKS_TO[filters.to] : empty;
  return readPage(
    ctx.em,
    { entity: InviteLink, alias: 'i', where: sql`i.organization_id = ${organizationId}${to}`, order: creationOrder<InviteLinkRow>('i') },
    args,
  );
}

/** A live space of the organization named in a request body, or a 400 naming the field. */
async function spaceInOrganization(ctx: Context, id: string, organizationId: string) {
  const space = await ctx.loaders.space.load(id);
  if (!space || space.deletedAt || space.organization !== organizationId) throw badRequest(`space: no space "${id}" in this organization`);
  return space;
}

/**
 * Creates an invite link: to the organization with `role` (null: guest), or to one space or collection
 * with `level` (those who join become guests with that role on it).
 */
export async function createInviteLink(ctx: Context, organizationId: string, input: unknown): Promise<InviteLinkRow> {
  const fields = parseInput(CreateInviteLinkInput, input);
  if (fields.space && fields.collection) throw badRequest('space: a link is to one space or one collection, not both');
  const content = fields.space || fields.collection;
  if (content && fields.role !== undefined) throw badRequest('role: a link to a space or collection takes a level, not a role');
  if (content && !fields.level) throw badRequest('level: is required for a link to a space or collection');
  if (!content && fields.level !== undefined) throw badRequest('level: only a link to a space or collection takes a level');
  if (!content && fields.role === undefined) throw badRequest('role: is required (null invites guests)');
  if (fields.space) await spaceInOrganization(ctx, fields.space, organizationId);
  if (fields.collection) await collectionInOrganization(ctx, fields.collection, organizationId, 'collection');
  const link = ctx.em.create(InviteLink, {
    id: newInviteId(),
    organization: organizationId,
    role: (content ? fields.level : fields.role) ?? null,
    space: fields.space ?? null,
    collection: fields.collection ?? null,
    createdAt: ctx.clock.now(),
  });
  recordEvent(ctx, ctx.em, { type: 'invite.created', organizationId, target: inviteTarget(link), payload: invitePayload(link) });
  await ctx.em.flush();
  return link;
}

/** Changes the role of an organization link or the level of a content link. */
export async function updateInviteLink(ctx: Context, organizationId: string, inviteId: string, input: unknown): Promise<InviteLinkRow> {
  const changes = parseInput(UpdateInviteLinkInput, input);
  const link = await inviteLinkOf(ctx, organizationId, inviteId);
  const roleBefore = link.role;
  if (isContentLink(link)) {
    if (changes.role !== undefined) throw badRequest('role: this link is to a space or collection; change its level');
    if (!changes.level) throw badRequest('level: is required');
    link.role = changes.level;
  } else {
    if (changes.level !== undefined) throw badRequest('level: this link is to the organization; change its role');
    if (changes.role === undefined) throw badRequest('role: is required (null invites guests)');
    link.role = changes.role;
  }
  // The role it had: a no-op, which records nothing.
  if (link.role === roleBefore) return link;
  recordEvent(ctx, ctx.em, {
    type: 'invite.updated',
    organizationId,
    target: inviteTarget(link),
    payload: { ...invitePayload(link), changes: [isContentLink(link) ? 'level' : 'role'] },
  });
  await ctx.em.flush();
  return link;
}

/** Deletes an invite link: it stops letting anyone join at once. */
export async function deleteInviteLink(ctx: Context, organizationId: string, inviteId: string): Promise<void> {
  const link = await inviteLinkOf(ctx, organizationId, inviteId);
  await ctx.em.transactional(async (tx) => {
    // Of two deletions at once, only the one that removed the row announces it.
    if (!(await tx.nativeDelete(InviteLink, { id: inviteId }))) return;
    recordEvent(ctx, tx, { type: 'invite.deleted', organizationId, target: inviteTarget(link), payload: invitePayload(link) });
  });
}

/** True when the viewer already has everything the link gives. */
export async function isRedundant(ctx: Context, link: InviteLinkRow): Promise<boolean> {
  const given = rank(link.role as Role | null);
  if (link.space) {
    const space = await ctx.loaders.space.load(link.space);
    return !!space && rank(await ctx.policy.spaceRole(space)) >= given;
  }
  if (link.collection) {
    const collection = await ctx.loaders.collection.load(link.collection);
    return !!collection && rank(await ctx.policy.collectionRole(collection)) >= given;
  }
  const held = await ctx.policy.organizationRole(link.organization);
  return held !== undefined && rank(held) >= given;
}

/**
 * Joins the viewer to the link's organization. A new member gets the link's role (a content link makes
 * them a guest with the link's level on its space or collection). An existing member keeps their role
 * (a link never demotes nor promotes, and a disabled member stays disabled); a content link still
 * raises their role on its content to the link's level when that is more. Organizations that turned
 * invite links off refuse every link (403).
 */
export async function joinWithInviteLink(ctx: Context, organizationId: string, inviteId: string): Promise<MemberRow> {
  const link = await ctx.em.findOne(InviteLink, { id: inviteId, organization: organizationId });
  if (!link) throw notFound('Invite link');
  const organization = (await ctx.loaders.organization.load(organizationId))!;
  if (!organization.inviteLinks) throw forbidden('Invite links are turned off in this organization');
  const userId = ctx.viewer!.user.id;
  const content = isContentLink(link);
  const joined = { user: userId, role: content ? null : link.role, joinedAt: ctx.clock.now(), disabled: false, sso: false };
  await ctx.em.transactional(async (em) => {
    const tx = em;
    // An existing member (or one a concurrent join added first) did not join now.
    if (await joinAsMember(tx, organizationId, joined)) {
      recordEvent(ctx, tx, {
        type: 'member.joined',
        organizationId,
        target: memberTarget(organizationId, userId),
        payload: { ...memberPayload(joined), invite: inviteFingerprint(link.id) },
      });
    }
    if (content) {
      const target = link.space ? { organization: organizationId, space: link.space } : { organization: organizationId, collection: link.collection! };
      const before = await tx.findOne(
        ContentGrant,
        { ...(link.space ? { space: link.space } : { collection: link.collection! }), user: userId },
        { fields: ['role'] },
      );
      const grant = await putGrant(tx, target, { team: null, user: userId }, link.role as Role, ctx.clock.now(), true);
      if (before?.role !== grant.role) {
        recordEvent(ctx, tx, {
          type: 'permission.granted',
          organizationId,
          target: grantTarget(target, { team: null, user: userId }),
          payload: grantPayload(grant),
        });
      }
    }
  });
  return (await ctx.em.findOne(Member, { organization: organizationId, user: userId }, { refresh: true }))!;
}

/** Content invite links to spaces and collections leaving their organization (see Area.contentLeaving). */
export async function removeInviteLinksTo(em: EntityManager, content: LeavingContent): Promise<void> {
  for (const [field, ids] of [
    ['space', content.spaces],
    ['collection', content.collections],
  ] as const) {
    if (ids?.length) await em.nativeDelete(InviteLink, { [field]: { $in: ids } });
  }
}
