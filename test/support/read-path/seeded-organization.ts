import { expect } from 'vitest';
import { addMember, Organization } from '../../../src/domain/organizations/index.js';
import { Site, SiteSection } from '../../../src/domain/sites/index.js';
import type { Role } from '../../../src/kernel/roles.js';
import { commentsPath, postComment, postReply } from '../comments.js';
import { createCollection, createPage, createSpace, merge, openChangeRequest } from '../content.js';
import { newOrganization, newUser, type Caller } from '../factories.js';
import { createTeam, grant, setTeamRole } from '../people.js';
import type { TestServer } from '../server.js';
import { insertAdaptiveSchema, insertSection, insertSectionGroup, insertShareLink, insertSite, insertSiteSpace, type SiteRef } from '../sites.js';

/**
 * The data of the read-path differential test: one organization with a realistic mix, made through the
 * public doors (REST and GraphQL) where they serve it, and with the site factories for the sites' rows:
 *
 * - a collection tree three levels deep, with every kind of `defaultLevel` (`inherit`, none, a role),
 *   a deleted collection, spaces at the top level and in collections, two of them deleted (one long
 *   enough ago that it is past its restoration window);
 * - change requests in every status (one merged, which leaves the others outdated), by several authors;
 * - comments of spaces and of change requests, with replies (one edited), reactions and a resolved one;
 * - a team, grants to members and to the team, on spaces and on collections;
 * - three sites: one with section groups, sections and site spaces (publishing hidden and deleted spaces
 *   too), one without sections with share links, one empty;
 * - a second organization, administered by the outsider, in which the member with grants reads.
 *
 * The viewers whose answers are compared: the admin, a member with grants (and team owner), a member
 * without grants, a reader (organization role read), a guest with one grant, and an outsider.
 * The clock moves a minute between steps, so that creation and posting times are distinct (as they are
 * in life), except for two replies posted in the same millisecond.
 */
export type ViewerName = 'admin' | 'memberWithGrants' | 'memberWithoutGrants' | 'reader' | 'guest' | 'outsider';

export type SeededOrganizations = { organizationId: string; otherOrganizationId: string; viewers: Record<ViewerName, Caller> };

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

async function restOk(caller: Caller, method: string, path: string, body?: unknown) {
  const res = await caller.rest<unknown>(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
}

async function member(server: TestServer, organizationId: string, displayName: string, role: Role | null) {
  const caller = await newUser(server, { displayName });
  await addMember(server.em(), server.clock, organizationId, caller.user.id, role);
  return caller;
}

export async function seedOrganizations(server: TestServer): Promise<SeededOrganizations> {
  const tick = () => server.clock.advance(MINUTE);
  const admin = await newUser(server, { displayName: 'Ada Admin' });
  const organization = await newOrganization(server, admin, { title: 'Acme Docs', emailDomains: ['acme.test'] });
  const orgId = organization.id;
  const memberWithGrants = await member(server, orgId, 'Wes Writer', 'comment');
  const memberWithoutGrants = await member(server, orgId, 'Eve Editor', 'edit');
  const reader = await member(server, orgId, 'Rae Reader', 'read');
  const guest = await member(server, orgId, 'Gus Guest', null);
  const teamMate = await member(server, orgId, 'Tim Teammate', 'read');
  const outsider = await newUser(server, { displayName: 'Otto Outsider' });

  // The collection tree, and the spaces in and out of it (created in this order: "oldest first" is this order).
  const collection = async (title: string, parent: string | null, defaultLevel: string | null = 'inherit') => {
    tick();
    const { id } = await createCollection(admin, orgId, { title, ...(parent ? { parent } : {}) });
    if (defaultLevel !== 'inherit') await restOk(admin, 'PATCH', `/v1/collections/${id}`, { defaultLevel });
    return id;
  };
  const space = async (title: string, parent: string | null, details: { defaultLevel?: string | null; visibility?: string; emoji?: string } = {}) => {
    tick();
    const { defaultLevel = 'inherit', ...create } = details;
    const { id } = await createSpace(admin, orgId, { title, ...(parent ? { parent } : {}), ...create });
    if (defaultLevel !== 'inherit') await restOk(admin, 'PATCH', `/v1/spaces/${id}`, { defaultLevel });
    return id;
  };
  const handbook = await collection('Handbook', null);
  const guides = await collection('Guides', handbook);
  const internal = await collection('Internal', guides, null);
  const reference = await collection('Reference', handbook, 'read');
  const privateOnes = await collection('Private', null, null);
  const drafts = await collection('Drafts', privateOnes);
  const archive = await collection('Archive', null, 'comment');
  const scratch = await collection('Scratch', null);

  const ancient = await space('Ancient notes', null);
  const welcome = await space('Welcome', null, { visibility: 'public', emoji: '👋' });
  const launch = await space('Launch plan', null, { defaultLevel: null });
  const onboarding = await space('Onboarding', handbook, { visibility: 'in-collection' });
  const styleGuide = await space('Style guide', guides, { defaultLevel: 'admin' });
  const recipes = await space('Secret recipes', internal);
  const board = await space('Board notes', privateOnes, { visibility: 'unlisted' });
  const roadmap = await space('Roadmap', drafts, { defaultLevel: 'read' });
  const oldDocs = await space('Old docs', archive, { visibility: 'share-link' });
  const api = await space('API', reference, { emoji: '1f680' });
  await space('Sandbox', scratch);
  await space('Feedback', null, { defaultLevel: 'comment' });

  // People: a team owned by the member with grants, and grants to members and to the team.
  tick();
  const writers = await createTeam(admin, orgId, 'Writers', [memberWithGrants.user.id, teamMate.user.id]);
  await setTeamRole(admin, orgId, writers.id, memberWithGrants.user.id, 'owner');
  await grant(admin, { space: launch }, { user: memberWithGrants.user.id }, 'review');
  await grant(admin, { collection: archive }, { user: memberWithGrants.user.id }, 'edit');
  await grant(admin, { collection: internal }, { team: writers.id }, 'edit');
  await grant(admin, { collection: privateOnes }, { user: guest.user.id }, 'comment');
  await createTeam(admin, orgId, 'Nobody yet');

  // Change requests in every status; merging the last one moves Welcome's main content on.
  tick();
  const typos = await openChangeRequest(admin, welcome, 'Fix typos');
  tick();
  const tone = await openChangeRequest(memberWithoutGrants, welcome, 'Friendlier tone');
  await restOk(memberWithoutGrants, 'PATCH', `/v1/spaces/${welcome}/change-requests/${tone.id}`, { status: 'draft' });
  tick();
  const abandoned = await openChangeRequest(admin, welcome, 'Abandoned idea');
  await restOk(admin, 'PATCH', `/v1/spaces/${welcome}/change-requests/${abandoned.id}`, { status: 'archived' });
  tick();
  const intro = await openChangeRequest(admin, welcome, 'Introduction');
  await createPage(memberWithoutGrants, welcome, intro.id, { title: 'Introduction', markdown: 'Hello.' });
  tick();
  expect((await merge(admin, welcome, intro.id)).status).toBe(200);
  tick();
  const launchCr = await openChangeRequest(memberWithGrants, launch, 'Launch checklist');
  tick();
  await openChangeRequest(admin, recipes, 'New recipe');
  tick();
  const oldCr = await openChangeRequest(admin, oldDocs, 'Last words');

  // Discussions: comments with replies and reactions, on spaces and on change requests.
  const welcomeComments = commentsPath(welcome);
  tick();
  const question = await postComment(memberWithoutGrants, welcomeComments, 'Should we say **hi**?');
  tick();
  const firstReply = await postReply(admin, welcomeComments, question.id, 'Yes.');
  tick();
  await postReply(memberWithGrants, welcomeComments, question.id, 'Agreed.');
  tick();
  await restOk(admin, 'PUT', `${welcomeComments}/${question.id}/replies/${firstReply.id}`, { body: { markdown: 'Yes, definitely.' } });
  await restOk(admin, 'PUT', `${welcomeComments}/${question.id}`, { addedReactions: ['👍'] });
  tick();
  await restOk(memberWithGrants, 'PUT', `${welcomeComments}/${question.id}`, { addedReactions: ['🎉'] });
  tick();
  await restOk(memberWithoutGrants, 'PUT', `${welcomeComments}/${question.id}`, { addedReactions: ['👍'] });
  tick();
  await restOk(memberWithGrants, 'PUT', `${welcomeComments}/${question.id}/replies/${firstReply.id}`, { addedReactions: ['❤️'] });
  tick();
  const settled = await postComment(admin, welcomeComments, 'Settled already.');
  tick();
  await restOk(admin, 'PUT', `${welcomeComments}/${settled.id}`, { resolved: true });
  tick();
  await postComment(memberWithGrants, welcomeComments, 'A remark without answers.');
  const typosComments = commentsPath(welcome, typos.id);
  tick();
  const review = await postComment(admin, typosComments, 'One more typo in the title.');
  tick();
  // Two replies in the same millisecond: lists order them by id.
  await postReply(memberWithoutGrants, typosComments, review.id, 'Fixed.');
  await postReply(admin, typosComments, review.id, 'Thanks.');
  tick();
  await postComment(memberWithGrants, commentsPath(launch), 'Who signs off?');
  const launchCrComments = commentsPath(launch, launchCr.id);
  tick();
  const checklist = await postComment(memberWithGrants, launchCrComments, 'Checklist ready.');
  tick();
  await postReply(admin, launchCrComments, checklist.id, 'Merging tomorrow.');
  tick();
  await postComment(guest, commentsPath(board), 'A guest was here.');
  tick();
  await postComment(admin, commentsPath(oldDocs, oldCr.id), 'Before we delete it.');

  // Sites: their rows through the factories (the doors' create rules are the sites tests' business).
  tick();
  const docs = await insertSite(server, orgId, { title: 'Docs', basename: 'docs', adaptiveContentEnabled: true, agentsContext: 'Be brief.' });
  const docsRef: SiteRef = { id: docs.id, organization: orgId };
  await insertAdaptiveSchema(server, docsRef, { jsonSchema: { type: 'object', properties: { beta: { type: 'boolean' } }, additionalProperties: false } });
  const gettingStarted = await insertSectionGroup(server, docsRef, { position: 'a1', title: 'Getting started', icon: 'rocket' });
  await insertSectionGroup(server, docsRef, { position: 'a3', title: 'Empty group' });
  const start = await insertSection(server, docsRef, { path: 'start', position: 'a0', title: 'Start here' });
  const guidesSection = await insertSection(server, docsRef, { path: 'guides', position: 'a0', sectionGroup: gettingStarted.id, isDefault: true });
  const apiSection = await insertSection(server, docsRef, {
    path: 'api',
    position: 'a1',
    sectionGroup: gettingStarted.id,
    description: 'The API',
    defaultSiteSpace: 'gone-site-space',
  });
  await insertSection(server, docsRef, { path: 'more', position: 'a2', title: 'More', condition: 'visitor.claims.beta', icon: 'star' });
  await insertSiteSpace(server, docsRef, { space: welcome, section: start.id, path: 'welcome', position: 'a0' });
  const launchSiteSpace = await insertSiteSpace(server, docsRef, {
    space: launch,
    section: start.id,
    path: 'launch',
    position: 'a1',
    condition: 'visitor.claims.beta',
  });
  await server.em().nativeUpdate(SiteSection, { id: start.id }, { defaultSiteSpace: launchSiteSpace.id });
  await insertSiteSpace(server, docsRef, { space: onboarding, section: guidesSection.id, path: 'onboarding', position: 'a0' });
  await insertSiteSpace(server, docsRef, { space: oldDocs, section: guidesSection.id, path: 'old', position: 'a1' });
  await insertSiteSpace(server, docsRef, { space: api, section: apiSection.id, path: 'api', position: 'a0' });

  tick();
  const preview = await insertSite(server, orgId, {
    title: 'Preview',
    visibility: 'share-link',
    published: false,
    hostname: 'preview.acme.test',
    proxyOrigin: 'acme.test/preview',
    type: 'premium',
  });
  const previewRef: SiteRef = { id: preview.id, organization: orgId };
  await insertSiteSpace(server, previewRef, { space: styleGuide, path: 'style', position: 'a0' });
  const roadmapSiteSpace = await insertSiteSpace(server, previewRef, { space: roadmap, path: 'roadmap', position: 'a1' });
  await insertSiteSpace(server, previewRef, { space: recipes, path: 'recipes', position: 'a2' });
  await server.em().nativeUpdate(Site, { id: preview.id }, { defaultSiteSpace: roadmapSiteSpace.id });
  await insertShareLink(server, previewRef, { name: 'Partners' });
  tick();
  await insertShareLink(server, previewRef, { name: 'Old partners', active: false });
  tick();
  await insertSite(server, orgId, { title: 'Empty', visibility: 'unlisted', published: false });
  // Written behind the door: updateOrganization still refuses every defaultContent (it predates sites).
  await server.em().nativeUpdate(Organization, { id: orgId }, { defaultContent: { type: 'site', site: docs.id } });

  // Deletions last: a collection (its space goes with it), a space long ago, a space lately.
  tick();
  await restOk(admin, 'DELETE', `/v1/collections/${scratch}`);
  await restOk(admin, 'DELETE', `/v1/spaces/${ancient}`);
  server.clock.advance(8 * DAY);
  await restOk(admin, 'DELETE', `/v1/spaces/${oldDocs}`);
  tick();

  // Another organization: the outsider's, in which the member with grants reads.
  const other = await newOrganization(server, outsider, { title: 'Elsewhere' });
  await addMember(server.em(), server.clock, other.id, memberWithGrants.user.id, 'read');
  tick();
  const elsewhereShelf = (await createCollection(outsider, other.id, { title: 'Shelf' })).id;
  tick();
  const elsewhereSpace = (await createSpace(outsider, other.id, { title: 'Elsewhere notes', parent: elsewhereShelf })).id;
  await insertSiteSpace(
    server,
    { id: (await insertSite(server, other.id, { title: 'Elsewhere site' })).id, organization: other.id },
    {
      space: elsewhereSpace,
      path: 'notes',
      position: 'a0',
    },
  );
  tick();
  return {
    organizationId: orgId,
    otherOrganizationId: other.id,
    viewers: { admin, memberWithGrants, memberWithoutGrants, reader, guest, outsider },
  };
}
