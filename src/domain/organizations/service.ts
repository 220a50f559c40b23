import type { EntityManager } from '@mikro-orm/postgresql';
import { SignJWT } from 'jose';
import { withinTokenOrganization } from '../../auth/visibility.js';
import sql from 'sql-template-tag';
import { creationOrder } from '../../db/creation-order.js';
import { readPage } from '../../db/pages.js';
import { queryIn } from '../../db/statements.js';
import type { Clock } from '../../kernel/clock.js';
import { newId } from '../../kernel/ids.js';
import type { Role } from '../../kernel/roles.js';
import { serverSecret } from '../../auth/secrets.js';
import type { Context } from '../../kernel/context.js';
import { alreadyTaken } from '../../db/database-errors.js';
import { badRequest, notFound } from '../../kernel/errors.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import { CreateOrganizationInput, domainName, UpdateOrganizationInput } from './inputs.js';
import { applyChanges } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import { Member, Organization, type OrganizationRow } from './entities.js';
import { organizationPayload, recordBy } from './events.js';

async function assertHostnameFree(em: EntityManager, hostname: string, except?: string) {
  const taken = await em.findOne(Organization, { hostname, ...(except ? { id: { $ne: except } } : {}) });
  if (taken) throw alreadyTaken('organization_hostname_unique', hostname);
}

/**
 * Creates an organization whose first member, `ownerId`, is its admin, from an input checked here;
 * `ctx` is the request that asks (the event's actor), null when the server creates it (bootstrap).
 */
export async function createOrganization(
  em: EntityManager,
  clock: Clock,
  ownerId: string,
  input: unknown,
  ctx: Context | null = null,
): Promise<OrganizationRow> {
  const fields = parseInput(CreateOrganizationInput, input);
  if (fields.hostname) await assertHostnameFree(em, fields.hostname);
  const now = clock.now();
  const organization = em.create(Organization, {
    id: newId(),
    title: fields.title,
    createdAt: now,
    emailDomains: [...new Set(fields.emailDomains ?? [])],
    hostname: fields.hostname ?? null,
    type: fields.type ?? 'business',
    useCase: fields.useCase ?? null,
    communityType: fields.communityType ?? null,
    defaultRole: 'read',
    defaultContent: null,
    logo: null,
    sso: false,
    ai: false,
    inviteLinks: true,
    plan: 'free',
  });
  em.create(Member, { organization: organization.id, user: ownerId, role: 'admin', joinedAt: now, lastSeenAt: null, disabled: false, sso: false });
  recordBy(ctx, em, clock, {
    type: 'organization.created',
    organizationId: organization.id,
    target: { organizationId: organization.id },
    payload: organizationPayload(organization),
  });
  await em.flush();
  return organization;
}

/** Adds a user to an organization, or changes the role of an existing member. `role` null = guest. */
export async function addMember(em: EntityManager, clock: Clock, organizationId: string, userId: string, role: Role | null) {
  if (!(await em.findOne(Organization, { id: organizationId }))) throw notFound('Organization');
  await em
    .createQueryBuilder(Member)
    .insert({ organization: organizationId, user: userId, role, joinedAt: clock.now(), lastSeenAt: null, disabled: false, sso: false })
    .onConflict(['organization', 'user'])
    .merge(['role'])
    .execute();
}

export async function updateOrganization(ctx: Context, id: string, input: unknown): Promise<OrganizationRow> {
  const changes = parseInput(UpdateOrganizationInput, input);
  if (changes.hostname) await assertHostnameFree(ctx.em, changes.hostname, id);
  if (changes.emailDomains) changes.emailDomains = [...new Set(changes.emailDomains)];
  return ctx.em.transactional(async (tx) => {
    // The entity it changes, read afresh in its transaction (the loaders hand out plain rows); an
    // organization deleted since the guard read it is not found.
    const organization = await tx.findOne(Organization, id, { refresh: true });
    if (!organization) throw notFound('Organization');
    // The site stays until this change commits (a deletion waits, then clears the pointer it finds).
    const pointed = changes.defaultContent?.site;
    if (pointed && !(await queryIn(tx, sql`select 1 from "site" where id = ${pointed} and organization_id = ${id} for share`)).length) {
      throw badRequest(`defaultContent.site: no site "${pointed}" in this organization`);
    }
    const changed = applyChanges(organization, changes);
    if (changed.length) {
      recordEvent(ctx, tx, {
        type: 'organization.updated',
        organizationId: id,
        target: { organizationId: id },
        payload: { ...organizationPayload(organization), changes: changed },
      });
    }
    return organization;
  });
}

/** Organizations the viewer is an active member of, oldest first; one page read in SQL. */
export async function listViewerOrganizations(ctx: Context, args: PageArgs) {
  const where = sql`exists (select 1 from member m where m.organization_id = o.id and m.user_id = ${ctx.viewer!.user.id} and not m.disabled${withinTokenOrganization(ctx.viewer, sql`m.organization_id`)})`;
  return readPage(ctx.em, { entity: Organization, alias: 'o', where, order: creationOrder<OrganizationRow>('o') }, args);
}

/**
 * Organizations that list `domain` among their e-mail domains. A caller sees all of them for the
 * domain of their own e-mail address (the organizations they may join), otherwise only their own.
 */
export async function organizationsForEmailDomain(ctx: Context, domain: string): Promise<OrganizationRow[]> {
  const wanted = parseInput(domainName, domain);
  const candidates = await ctx.em.find(Organization, { emailDomains: { $contains: [wanted] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  if (ctx.viewer!.user.email.split('@')[1] === wanted) return candidates;
  const visible = await Promise.all(candidates.map((o) => ctx.policy.isMember(o.id)));
  return candidates.filter((_, i) => visible[i]);
}

/**
 * Records the viewer's activity and returns their visitor claims as a signed JWT, which
 * visitor-authenticated sites of this organization accept for members.
 */
export async function ping(ctx: Context, organizationId: string) {
  const viewer = ctx.viewer!;
  const membership = await ctx.em.findOneOrFail(Member, { organization: organizationId, user: viewer.user.id });
  membership.lastSeenAt = ctx.clock.now();
  await ctx.em.flush();
  const key = await serverSecret(ctx.em, ctx.clock, 'visitor-claims');
  const issuedAt = Math.floor(ctx.clock.now().getTime() / 1000);
  const serviceVisitorClaims = await new SignJWT({ organization: organizationId, role: membership.role, email: viewer.user.email })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(viewer.user.id)
    .setIssuer(ctx.config.publicUrl)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + 3600)
    .sign(key);
  return { serviceVisitorClaims };
}
