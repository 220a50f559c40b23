import { expect } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import type { Route } from '../../rest-facade/route.js';
import { newMember, newOrganization, newUser, type Caller } from './factories.js';
import { siteEvent } from './insights.js';
import { createInviteLink } from './people.js';
import { identityProviderKeys } from './saml.js';
import { startTestServer, type TestServer } from './server.js';

/**
 * For every routed operation that takes a body: a real target (its path parameters, made fresh through
 * the doors) and the smallest body it accepts, so that a test can change one field of a valid request
 * and know that field is what the server judges.
 */

export type ExampleWorld = { server: TestServer; admin: Caller; organizationId: string; otherOrganizationId: string };
export type Example = { params: Record<string, string>; body: Record<string, unknown> };

/** A test server with an admin of two organizations (transfers go to the second), for the examples. */
export async function startExampleWorld(): Promise<ExampleWorld> {
  // One admin token makes and calls the examples of every operation, faster than any client does:
  // hundreds of writes within a minute, more than the default budget (rate-limits.test.ts tests it).
  const server = await startTestServer({ RATE_LIMIT_WRITES: '0' });
  const admin = await newUser(server);
  const organizationId = (await newOrganization(server, admin)).id;
  const otherOrganizationId = (await newOrganization(server, admin, { title: 'Elsewhere' })).id;
  return { server, admin, organizationId, otherOrganizationId };
}

/** Sends a request the example needs and returns the answer's body, failing on another status. */
async function call(world: ExampleWorld, method: string, path: string, body: unknown, status: number) {
  const res = await world.admin.rest(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body as { id: string; [key: string]: any };
}

const webhookBody = { url: 'https://hooks.example.com/events', eventTypes: ['*'] };

const space = (w: ExampleWorld) => call(w, 'POST', `/v1/orgs/${w.organizationId}/spaces`, { title: 'Example space' }, 201);
const collection = (w: ExampleWorld) => call(w, 'POST', `/v1/orgs/${w.organizationId}/collections`, { title: 'Example collection' }, 201);
const team = (w: ExampleWorld) => call(w, 'PUT', `/v1/orgs/${w.organizationId}/teams`, { title: 'Example team' }, 201);

async function site(w: ExampleWorld) {
  const published = await space(w);
  const created = await call(w, 'POST', `/v1/orgs/${w.organizationId}/sites`, { title: 'Example site', spaces: [published.id] }, 201);
  return { organizationId: w.organizationId, siteId: created.id };
}
const siteBase = (p: { organizationId: string; siteId: string }) => `/v1/orgs/${p.organizationId}/sites/${p.siteId}`;

async function section(w: ExampleWorld) {
  const onSite = await site(w);
  const added = await call(w, 'POST', `${siteBase(onSite)}/sections`, { spaceId: (await space(w)).id }, 201);
  return { ...onSite, siteSectionId: added.id };
}

async function sectionGroup(w: ExampleWorld) {
  const onSite = await site(w);
  const added = await call(w, 'POST', `${siteBase(onSite)}/section-groups`, { title: 'Example group' }, 201);
  return { ...onSite, siteSectionGroupId: added.id };
}

async function siteSpace(w: ExampleWorld) {
  const onSite = await site(w);
  const added = await call(w, 'POST', `${siteBase(onSite)}/site-spaces`, { spaceId: (await space(w)).id }, 201);
  return { ...onSite, siteSpaceId: added.id };
}

async function changeRequest(w: ExampleWorld) {
  const spaceId = (await space(w)).id;
  const opened = await call(w, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Example' }, 201);
  return { spaceId, changeRequestId: opened.id };
}

/** A comment (and its reply) in a space, or in a change request of one. */
async function comment(w: ExampleWorld, inChangeRequest: boolean) {
  const target = inChangeRequest ? await changeRequest(w) : { spaceId: (await space(w)).id };
  const base =
    'changeRequestId' in target ? `/v1/spaces/${target.spaceId}/change-requests/${target.changeRequestId}/comments` : `/v1/spaces/${target.spaceId}/comments`;
  const posted = await call(w, 'POST', base, { body: { markdown: 'A comment' } }, 200);
  const reply = await call(w, 'POST', `${base}/${posted.id}/replies`, { body: { markdown: 'A reply' } }, 200);
  return { ...target, commentId: posted.id, commentReplyId: reply.id };
}

/** The smallest body that publishes an integration of the example organization. */
const integrationBody = (w: ExampleWorld) => ({
  organization: w.organizationId,
  title: 'Example',
  description: 'An example',
  scopes: ['space:content:read'],
  script: 'export default {}',
});

/** A newly published integration's name. */
async function integration(w: ExampleWorld) {
  const integrationName = `example-${newId().toLowerCase()}`;
  await call(w, 'POST', `/v1/integrations/${integrationName}`, integrationBody(w), 200);
  return integrationName;
}

/** A new integration's installation on the example organization (on no space or site yet). */
async function installation(w: ExampleWorld) {
  const integrationName = await integration(w);
  const installed = await call(w, 'POST', `/v1/integrations/${integrationName}/installations`, { organization: w.organizationId }, 201);
  return { integrationName, installationId: installed.id };
}

/** A new installation, installed on that space (or site). */
async function installedOn(w: ExampleWorld, kind: 'space' | 'site', id: string) {
  const params = await installation(w);
  const body = kind === 'space' ? { space: id } : { siteId: id };
  await call(w, 'POST', `/v1/integrations/${params.integrationName}/installations/${params.installationId}/${kind}s`, body, 201);
  return { ...params, [`${kind}Id`]: id };
}

const markdown = { body: { markdown: 'Text' } };
const openAPIText = JSON.stringify({ openapi: '3.0.3', info: { title: 'Example', version: '1' }, paths: {} });
const certificate = identityProviderKeys().certificate;
const adaptiveSchema = { type: 'object', properties: { beta: { type: 'boolean', description: 'In the beta programme' } }, additionalProperties: false };

export const examples: Record<string, (w: ExampleWorld) => Promise<Example>> = {
  updateOrganizationById: async (w) => ({ params: { organizationId: w.organizationId }, body: {} }),
  updateMemberInOrganizationById: async (w) => ({
    params: { organizationId: w.organizationId, userId: (await newMember(w.server, w.organizationId, 'read')).user.id },
    body: {},
  }),
  createOrganizationTeam: async (w) => ({ params: { organizationId: w.organizationId }, body: { title: 'New team' } }),
  updateTeamInOrganizationById: async (w) => ({ params: { organizationId: w.organizationId, teamId: (await team(w)).id }, body: { title: 'Renamed' } }),
  updateMembersInOrganizationTeam: async (w) => ({ params: { organizationId: w.organizationId, teamId: (await team(w)).id }, body: {} }),
  addMemberToOrganizationTeamById: async (w) => ({
    params: { organizationId: w.organizationId, teamId: (await team(w)).id, userId: (await newMember(w.server, w.organizationId, 'edit')).user.id },
    body: {},
  }),
  updateOrganizationInviteById: async (w) => ({
    params: { organizationId: w.organizationId, inviteId: (await createInviteLink(w.admin, w.organizationId, { role: 'edit' })).id },
    body: { role: 'read' },
  }),
  createOrganizationSAMLProvider: async (w) => ({ params: { organizationId: w.organizationId }, body: { label: 'Example IdP' } }),
  updateOrganizationSAMLProvider: async (w) => {
    const provider = await call(w, 'POST', `/v1/orgs/${w.organizationId}/saml`, { label: 'Example IdP', certificate }, 201);
    return { params: { organizationId: w.organizationId, samlProviderId: provider.id }, body: {} };
  },

  createCollection: async (w) => ({ params: { organizationId: w.organizationId }, body: {} }),
  updateCollectionById: async (w) => ({ params: { collectionId: (await collection(w)).id }, body: {} }),
  moveCollection: async (w) => ({ params: { collectionId: (await collection(w)).id }, body: {} }),
  transferCollection: async (w) => ({ params: { collectionId: (await collection(w)).id }, body: { organization: w.otherOrganizationId } }),

  createSpace: async (w) => ({ params: { organizationId: w.organizationId }, body: {} }),
  updateSpaceById: async (w) => ({ params: { spaceId: (await space(w)).id }, body: {} }),
  moveSpace: async (w) => ({ params: { spaceId: (await space(w)).id }, body: {} }),
  transferSpace: async (w) => ({ params: { spaceId: (await space(w)).id }, body: { organization: w.otherOrganizationId } }),

  createSite: async (w) => ({ params: { organizationId: w.organizationId }, body: {} }),
  updateSiteById: async (w) => ({ params: await site(w), body: {} }),
  updateSiteAdaptiveSchema: async (w) => ({ params: await site(w), body: { jsonSchema: adaptiveSchema } }),
  addSectionToSite: async (w) => ({ params: await site(w), body: { spaceId: (await space(w)).id } }),
  updateSiteSectionById: async (w) => ({ params: await section(w), body: {} }),
  moveSiteSection: async (w) => ({ params: await section(w), body: {} }),
  addSectionGroupToSite: async (w) => ({ params: await site(w), body: { title: 'New group' } }),
  updateSiteSectionGroupById: async (w) => ({ params: await sectionGroup(w), body: {} }),
  addSectionToGroup: async (w) => {
    const group = await sectionGroup(w);
    const added = await call(w, 'POST', `${siteBase(group)}/sections`, { spaceId: (await space(w)).id }, 201);
    return { params: group, body: { sectionId: added.id } };
  },
  moveSiteSectionGroup: async (w) => ({ params: await sectionGroup(w), body: {} }),
  addSpaceToSite: async (w) => ({ params: await site(w), body: { spaceId: (await space(w)).id } }),
  updateSiteSpaceById: async (w) => ({ params: await siteSpace(w), body: {} }),
  moveSiteSpace: async (w) => ({ params: await siteSpace(w), body: {} }),
  duplicateSiteSpace: async (w) => ({ params: await siteSpace(w), body: {} }),
  sortSiteStructure: async (w) => {
    const { siteSectionId, ...params } = await section(w);
    return { params, body: { item: { type: 'site-section', id: siteSectionId }, position: {} } };
  },
  createSiteShareLink: async (w) => ({ params: await site(w), body: { name: 'Partners' } }),
  updateSiteShareLinkById: async (w) => {
    const onSite = await site(w);
    const link = await call(w, 'POST', `${siteBase(onSite)}/share-links`, { name: 'Partners' }, 201);
    return { params: { ...onSite, shareLinkId: link.id }, body: {} };
  },
  trackEventsInSiteById: async (w) => ({ params: await site(w), body: { events: [siteEvent({ timestamp: w.server.clock.now().toISOString() })] } }),
  aggregateSiteEvents: async (w) => ({ params: await site(w), body: { range: 'last7Days' } }),

  createChangeRequest: async (w) => ({ params: { spaceId: (await space(w)).id }, body: {} }),
  updateChangeRequestById: async (w) => ({ params: await changeRequest(w), body: {} }),
  importContentInChangeRequest: async (w) => ({ params: await changeRequest(w), body: { url: 'https://example.com/', source: 'website' } }),
  updateChangeRequestContent: async (w) => ({ params: await changeRequest(w), body: { changes: [{ operation: 'insert_page', document: {} }] } }),

  postCommentInSpace: async (w) => ({ params: { spaceId: (await space(w)).id }, body: markdown }),
  updateCommentInSpace: async (w) => ({ params: await comment(w, false), body: {} }),
  postCommentReplyInSpace: async (w) => ({ params: await comment(w, false), body: markdown }),
  updateCommentReplyInSpace: async (w) => ({ params: await comment(w, false), body: {} }),
  postCommentInChangeRequest: async (w) => ({ params: await changeRequest(w), body: markdown }),
  updateCommentInChangeRequest: async (w) => ({ params: await comment(w, true), body: {} }),
  postCommentReplyInChangeRequest: async (w) => ({ params: await comment(w, true), body: markdown }),
  updateCommentReplyInChangeRequest: async (w) => ({ params: await comment(w, true), body: {} }),

  createTranslation: async (w) => ({ params: { organizationId: w.organizationId }, body: { title: 'Europe' } }),
  updateTranslation: async (w) => {
    const settings = await call(w, 'POST', `/v1/orgs/${w.organizationId}/translations`, { title: 'Europe' }, 201);
    return { params: { organizationId: w.organizationId, translationSettingsId: settings.id }, body: { title: 'Asia' } };
  },
  createOpenAPISpec: async (w) => ({
    params: { organizationId: w.organizationId },
    body: { slug: `spec-${newId().toLowerCase()}`, source: { text: openAPIText } },
  }),
  createOrUpdateOpenAPISpecBySlug: async (w) => ({
    params: { organizationId: w.organizationId, specSlug: `spec-${newId().toLowerCase()}` },
    body: { source: { text: openAPIText } },
  }),
  publishIntegration: async (w) => ({
    params: { integrationName: `example-${newId().toLowerCase()}` },
    body: integrationBody(w),
  }),
  // Installations of the current client (0.202.0): on the organization, then on one space or site.
  installIntegration: async (w) => ({ params: { integrationName: await integration(w) }, body: { organization: w.organizationId } }),
  updateIntegrationInstallation: async (w) => ({ params: await installation(w), body: { externalIds: ['example'] } }),
  installIntegrationOnSpace: async (w) => ({ params: await installation(w), body: { space: (await space(w)).id } }),
  updateIntegrationSpaceInstallation: async (w) => ({ params: await installedOn(w, 'space', (await space(w)).id), body: { externalIds: ['example'] } }),
  searchSiteContent: async (w) => ({ params: await site(w), body: { query: 'example' } }),
  resolvePublishedContentByUrl: async (w) => ({ params: {}, body: { url: `${w.server.deps.config.publicUrl}/sites/${(await site(w)).siteId}` } }),
  installIntegrationOnSite: async (w) => ({ params: await installation(w), body: { siteId: (await site(w)).siteId } }),
  updateIntegrationSiteInstallation: async (w) => ({ params: await installedOn(w, 'site', (await site(w)).siteId), body: { externalIds: ['example'] } }),
  createWebhook: async (w) => ({ params: { organizationId: w.organizationId }, body: webhookBody }),
  // Operations of the current client (0.202.0): invite links, roles on spaces and collections.
  createOrganization: () => Promise.resolve({ params: {}, body: { title: 'Example organization' } }),
  createOrganizationInvite: (w) => Promise.resolve({ params: { organizationId: w.organizationId }, body: { role: 'read' } }),
  inviteUsersToOrganization: (w) => Promise.resolve({ params: { organizationId: w.organizationId }, body: { emails: [w.admin.user.email] } }),
  updateUserById: (w) => Promise.resolve({ params: { userId: w.admin.user.id }, body: { displayName: w.admin.user.displayName } }),
  inviteToSpace: async (w) => ({ params: { spaceId: (await space(w)).id }, body: { role: 'read', users: [w.admin.user.id] } }),
  inviteToCollection: async (w) => ({ params: { collectionId: (await collection(w)).id }, body: { role: 'read', users: [w.admin.user.id] } }),
  updateUserPermissionInSpace: async (w) => ({ params: { spaceId: (await space(w)).id, userId: w.admin.user.id }, body: { role: 'read' } }),
  updateTeamPermissionInSpace: async (w) => ({ params: { spaceId: (await space(w)).id, teamId: (await team(w)).id }, body: { role: 'read' } }),
  updateUserPermissionInCollection: async (w) => ({
    params: { collectionId: (await collection(w)).id, userId: w.admin.user.id },
    body: { role: 'read' },
  }),
  updateTeamPermissionInCollection: async (w) => ({ params: { collectionId: (await collection(w)).id, teamId: (await team(w)).id }, body: { role: 'read' } }),
  updateOpenAPISpecBySlug: async (w) => {
    const spec = await call(w, 'POST', `/v1/orgs/${w.organizationId}/openapi`, { slug: `spec-${newId().toLowerCase()}`, source: { text: openAPIText } }, 201);
    return { params: { organizationId: w.organizationId, specSlug: String(spec.slug) }, body: { visibility: 'public' } };
  },
  updateWebhook: async (w) => {
    const webhook = await call(w, 'POST', `/v1/orgs/${w.organizationId}/webhooks`, webhookBody, 201);
    return { params: { organizationId: w.organizationId, webhookId: webhook.id }, body: {} };
  },
};

/** The route's path with its parameters filled in. */
export function pathOf(route: Route, params: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`${route.operationId}: no example value for {${name}}`);
    return encodeURIComponent(params[name]);
  });
}
