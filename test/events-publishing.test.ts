/**
 * Domain events of the discussion and publishing areas: comments and replies, sites and their
 * structure, share links, translations, OpenAPI specs and integrations. Each change, made through a
 * public door, records one event with its actor, target and payload; a refused change records none;
 * concurrent identical changes record one event per change that committed.
 */
import { describe, expect, it } from 'vitest';
import type { DomainEventRow } from '../src/events/entities.js';
import { commentsPath, postComment, postReply } from './support/comments.js';
import { createSpace, openChangeRequest } from './support/content.js';
import { eventsOf, lastEventSeq } from './support/events.js';
import { newOrganizationWithRoles } from './support/factories.js';
import { useTestServer } from './support/server.js';
import { newOrganizationWithSite, siteBase } from './support/sites.js';

const server = useTestServer();

/** The events of `organizationId` recorded since `afterSeq`, by type. */
async function eventsSince(organizationId: string, afterSeq: number, type?: string): Promise<DomainEventRow[]> {
  const events = await eventsOf(server, organizationId, afterSeq);
  return type ? events.filter((e) => e.type === type) : events;
}

describe('comment and reply events', () => {
  it('records edits, resolution, reopening, reactions and deletion of a space comment', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const base = commentsPath(space.id);
    const comment = await postComment(team.edit, base, 'First');
    const org = team.organization.id;
    let seq = await lastEventSeq(server);

    expect((await team.edit.rest('PUT', `${base}/${comment.id}`, { body: { markdown: 'Second' } })).status).toBe(200);
    const [edited] = await eventsSince(org, seq);
    expect(edited).toMatchObject({
      type: 'comment.edited',
      actorUserId: team.edit.user.id,
      door: 'rest',
      target: { spaceId: space.id, commentId: comment.id },
      payload: { object: 'comment', id: comment.id, body: { markdown: 'Second' }, editedAt: server.clock.now().toISOString(), changes: ['body'] },
    });

    seq = await lastEventSeq(server);
    expect((await team.admin.rest('PUT', `${base}/${comment.id}`, { resolved: true, addedReactions: ['👍'] })).status).toBe(200);
    const resolvedAndReacted = await eventsSince(org, seq);
    expect(resolvedAndReacted.map((e) => e.type)).toEqual(['comment.resolved', 'comment.reacted']);
    expect(resolvedAndReacted[0]).toMatchObject({ actorUserId: team.admin.user.id, payload: { status: 'resolved', resolvedBy: team.admin.user.id } });
    expect(resolvedAndReacted[1].payload).toMatchObject({
      id: comment.id,
      reactions: { user: team.admin.user.id, added: ['👍'], removed: [] },
      changes: ['reactions'],
    });

    seq = await lastEventSeq(server);
    // Resolving again changes nothing, so it announces nothing; reopening does.
    expect((await team.admin.rest('PUT', `${base}/${comment.id}`, { resolved: true })).status).toBe(200);
    expect(await eventsSince(org, seq)).toEqual([]);
    expect((await team.admin.rest('PUT', `${base}/${comment.id}`, { resolved: false, removedReactions: ['👍', '🎉'] })).status).toBe(200);
    const reopened = await eventsSince(org, seq);
    expect(reopened.map((e) => e.type)).toEqual(['comment.reopened', 'comment.reacted']);
    expect(reopened[0].payload).toMatchObject({ status: 'open', resolvedBy: null, resolvedAt: null });
    expect(reopened[1].payload).toMatchObject({ reactions: { added: [], removed: ['👍'] } });

    seq = await lastEventSeq(server);
    expect((await team.edit.rest('DELETE', `${base}/${comment.id}`)).status).toBe(204);
    const [deleted] = await eventsSince(org, seq);
    expect(deleted).toMatchObject({
      type: 'comment.deleted',
      actorUserId: team.edit.user.id,
      target: { commentId: comment.id },
      payload: { id: comment.id, body: { markdown: 'Second' } },
    });
  });

  it('records replies posted, edited, reacted to and deleted in a change request, and a reply resolving its comment', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const changeRequest = await openChangeRequest(team.edit, space.id);
    const base = commentsPath(space.id, changeRequest.id);
    const comment = await postComment(team.edit, base, 'Look');
    const org = team.organization.id;
    let seq = await lastEventSeq(server);

    const reply = await postReply(team.admin, base, comment.id, 'Seen');
    const [posted] = await eventsSince(org, seq);
    expect(posted).toMatchObject({
      type: 'comment_reply.posted',
      actorUserId: team.admin.user.id,
      target: { spaceId: space.id, changeRequestId: changeRequest.id, commentId: comment.id, commentReplyId: reply.id },
      payload: { object: 'comment-reply', id: reply.id, comment: comment.id, postedBy: team.admin.user.id, body: { markdown: 'Seen' } },
    });

    seq = await lastEventSeq(server);
    const replyPath = `${base}/${comment.id}/replies/${reply.id}`;
    expect((await team.admin.rest('PUT', replyPath, { body: { markdown: 'Seen, fixed' }, resolved: true, addedReactions: ['🎉'] })).status).toBe(200);
    const updated = await eventsSince(org, seq);
    expect(updated.map((e) => e.type)).toEqual(['comment_reply.edited', 'comment.resolved', 'comment_reply.reacted']);
    expect(updated[0].payload).toMatchObject({ id: reply.id, body: { markdown: 'Seen, fixed' }, changes: ['body'] });
    expect(updated[1]).toMatchObject({ target: { commentId: comment.id, changeRequestId: changeRequest.id }, payload: { id: comment.id, status: 'resolved' } });
    expect(updated[2].payload).toMatchObject({ id: reply.id, reactions: { added: ['🎉'], removed: [] } });

    seq = await lastEventSeq(server);
    expect((await team.admin.rest('DELETE', replyPath)).status).toBe(204);
    const [deleted] = await eventsSince(org, seq);
    expect(deleted).toMatchObject({ type: 'comment_reply.deleted', target: { commentReplyId: reply.id }, payload: { id: reply.id } });
  });

  it('records nothing for a refused change: no access (403), bad input (400), a deleted space (409)', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const base = commentsPath(space.id);
    const comment = await postComment(team.edit, base, 'Mine');
    const seq = await lastEventSeq(server);
    expect((await team.read.rest('PUT', `${base}/${comment.id}`, { body: { markdown: 'Not yours' } })).status).toBe(403);
    expect((await team.read.rest('DELETE', `${base}/${comment.id}`)).status).toBe(403);
    expect((await team.edit.rest('PUT', `${base}/${comment.id}`, { body: { markdown: '' } })).status).toBe(400);
    expect((await team.edit.rest('PUT', `${base}/${comment.id}`, { addedReactions: ['not an emoji'] })).status).toBe(400);
    expect((await team.admin.rest('DELETE', `/v1/spaces/${space.id}`)).status).toBe(204);
    expect((await team.edit.rest('PUT', `${base}/${comment.id}`, { resolved: true })).status).toBe(409);
    expect((await eventsSince(team.organization.id, seq)).filter((e) => !e.type.startsWith('space.'))).toEqual([]);
  });

  it('records one event for two concurrent identical reactions, one for two concurrent resolutions, one for two concurrent deletions', async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const base = commentsPath(space.id);
    const comment = await postComment(team.edit, base, 'Race');
    const seq = await lastEventSeq(server);
    const reactions = await Promise.all([1, 2].map(() => team.admin.rest('PUT', `${base}/${comment.id}`, { addedReactions: ['🚀'] })));
    expect(reactions.map((r) => r.status)).toEqual([200, 200]);
    const resolutions = await Promise.all([1, 2].map(() => team.admin.rest('PUT', `${base}/${comment.id}`, { resolved: true })));
    expect(resolutions.map((r) => r.status)).toEqual([200, 200]);
    const deletions = await Promise.all([1, 2].map(() => team.edit.rest('DELETE', `${base}/${comment.id}`)));
    for (const deletion of deletions) expect([204, 404]).toContain(deletion.status);
    const events = await eventsSince(team.organization.id, seq);
    expect(events.map((e) => e.type)).toEqual(['comment.reacted', 'comment.resolved', 'comment.deleted']);
  });
});

/** The types of the events since `afterSeq`, in order. */
const typesSince = async (organizationId: string, afterSeq: number) => (await eventsSince(organizationId, afterSeq)).map((e) => e.type);

describe('site events', () => {
  it('records a site created, updated, published, unpublished and deleted', async () => {
    const team = await newOrganizationWithRoles(server);
    const org = team.organization.id;
    const space = await createSpace(team.admin, org);
    let seq = await lastEventSeq(server);
    const created = await team.admin.rest('POST', `/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [space.id] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const site = { id: created.body.id as string, organization: org };
    const [createdEvent] = await eventsSince(org, seq);
    expect(createdEvent).toMatchObject({
      type: 'site.created',
      actorUserId: team.admin.user.id,
      door: 'rest',
      operation: 'createSite',
      target: { siteId: site.id },
      payload: { object: 'site', id: site.id, title: 'Docs', published: false, visibility: 'public', defaultSiteSpace: expect.any(String) },
    });

    seq = await lastEventSeq(server);
    expect((await team.admin.rest('PATCH', siteBase(site), { title: 'Handbook', basename: 'handbook' })).status).toBe(200);
    expect((await team.admin.rest('POST', `${siteBase(site)}/publish`)).status).toBe(200);
    // Publishing a published site changes nothing.
    expect((await team.admin.rest('POST', `${siteBase(site)}/publish`)).status).toBe(200);
    expect((await team.admin.rest('POST', `${siteBase(site)}/unpublish`)).status).toBe(200);
    const jsonSchema = { type: 'object', properties: { plan: { type: 'string', description: 'Plan' } }, additionalProperties: false };
    expect((await team.admin.rest('PUT', `${siteBase(site)}/adaptive-schema`, { jsonSchema })).status).toBe(200);
    const changes = await eventsSince(org, seq);
    expect(changes.map((e) => e.type)).toEqual(['site.updated', 'site.published', 'site.unpublished', 'site.updated']);
    expect(changes[3].payload).toMatchObject({ id: site.id, changes: ['adaptiveSchema'] });
    expect(changes[0].payload).toMatchObject({ title: 'Handbook', basename: 'handbook', changes: ['title', 'basename'] });
    expect(changes[1].payload).toMatchObject({ published: true });

    seq = await lastEventSeq(server);
    expect((await team.admin.rest('DELETE', siteBase(site))).status).toBe(204);
    expect(await eventsSince(org, seq)).toMatchObject([{ type: 'site.deleted', target: { siteId: site.id }, payload: { id: site.id, title: 'Handbook' } }]);
  });

  it('records every change of sections, section groups and site spaces as site.structure_changed', async () => {
    const team = await newOrganizationWithSite(server, { published: false });
    const { site } = team;
    const org = team.organization.id;
    const [first, second] = [await createSpace(team.admin, org, 'First'), await createSpace(team.admin, org, 'Second')];
    const structure = async (seq: number) =>
      (await eventsSince(org, seq)).map((e) => {
        expect(e.type).toBe('site.structure_changed');
        expect(e.target.siteId).toBe(site.id);
        return e.payload as { object: string; id: string; change: string; changes?: string[] };
      });

    let seq = await lastEventSeq(server);
    const siteSpace = await team.admin.rest('POST', `${siteBase(site)}/site-spaces`, { spaceId: first.id });
    expect(siteSpace.status, JSON.stringify(siteSpace.body)).toBe(201);
    expect(await structure(seq)).toEqual([{ site: site.id, object: 'site-space', id: siteSpace.body.id, change: 'added' }]);

    seq = await lastEventSeq(server);
    expect((await team.admin.rest('PATCH', `${siteBase(site)}/site-spaces/${siteSpace.body.id}`, { path: 'first-docs' })).status).toBe(200);
    expect((await team.admin.rest('POST', `${siteBase(site)}/site-spaces/${siteSpace.body.id}/move`, {})).status).toBe(200);
    expect(await structure(seq)).toMatchObject([
      { object: 'site-space', id: siteSpace.body.id, change: 'updated', changes: ['path'] },
      { object: 'site-space', id: siteSpace.body.id, change: 'moved' },
    ]);

    // The first section takes the root-level site spaces into a section of their own (first section rule).
    seq = await lastEventSeq(server);
    const section = await team.admin.rest('POST', `${siteBase(site)}/sections`, { spaceId: second.id, title: 'Guides' });
    expect(section.status, JSON.stringify(section.body)).toBe(201);
    const added = await structure(seq);
    expect(added.map((p) => `${p.object} ${p.change}`)).toEqual(['site-section added', 'site-space moved', 'site-section added', 'site-space added']);
    expect(added[2].id).toBe(section.body.id);

    seq = await lastEventSeq(server);
    const group = await team.admin.rest('POST', `${siteBase(site)}/section-groups`, { title: 'All', sections: [section.body.id] });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    const groupPath = `${siteBase(site)}/section-groups/${group.body.id}`;
    expect((await team.admin.rest('PATCH', groupPath, { title: 'Everything' })).status).toBe(200);
    expect((await team.admin.rest('POST', `${groupPath}/move`, {})).status).toBe(200);
    expect((await team.admin.rest('DELETE', `${groupPath}/sections/${section.body.id}`)).status).toBe(204);
    expect((await team.admin.rest('PATCH', `${siteBase(site)}/sections/${section.body.id}`, { title: 'How-tos' })).status).toBe(200);
    expect((await team.admin.rest('POST', `${siteBase(site)}/sections/${section.body.id}/move`, {})).status).toBe(200);
    expect((await team.admin.rest('DELETE', groupPath)).status).toBe(204);
    expect((await team.admin.rest('DELETE', `${siteBase(site)}/sections/${section.body.id}`)).status).toBe(204);
    expect((await structure(seq)).map((p) => `${p.object} ${p.change}${p.changes ? ` ${p.changes.join(',')}` : ''}`)).toEqual([
      'site-section-group added',
      'site-section moved',
      'site-section-group updated title',
      'site-section-group moved',
      'site-section moved',
      'site-section updated title',
      'site-section moved',
      'site-section-group removed',
      'site-section removed',
    ]);

    seq = await lastEventSeq(server);
    const remaining = (await team.admin.rest('GET', `${siteBase(site)}/site-spaces`)).body.items as { id: string }[];
    expect((await team.admin.rest('DELETE', `${siteBase(site)}/site-spaces/${remaining[0].id}`)).status).toBe(204);
    expect(await structure(seq)).toMatchObject([{ object: 'site-space', id: remaining[0].id, change: 'removed' }]);
  });

  it('records share links created, updated and deleted, without their keys', async () => {
    const team = await newOrganizationWithSite(server);
    const org = team.organization.id;
    const seq = await lastEventSeq(server);
    const link = await team.admin.rest('POST', `${siteBase(team.site)}/share-links`, { name: 'Partners' });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const linkPath = `${siteBase(team.site)}/share-links/${link.body.id}`;
    expect((await team.admin.rest('PATCH', linkPath, { active: false })).status).toBe(200);
    expect((await team.admin.rest('DELETE', linkPath)).status).toBe(204);
    const events = await eventsSince(org, seq);
    expect(events.map((e) => e.type)).toEqual(['share_link.created', 'share_link.updated', 'share_link.deleted']);
    expect(events[0]).toMatchObject({
      target: { siteId: team.site.id, shareLinkId: link.body.id },
      payload: { object: 'share-link', name: 'Partners', active: true },
    });
    expect(events[1].payload).toMatchObject({ active: false, changes: ['active'] });
    expect(JSON.stringify(events)).not.toContain(link.body.key ?? 'no key answered');
  });

  it('records nothing for a refused site change: no access (403), bad input (400), a taken path (409)', async () => {
    const team = await newOrganizationWithSite(server);
    const org = team.organization.id;
    const space = await createSpace(team.admin, org);
    const siteSpace = await team.admin.rest('POST', `${siteBase(team.site)}/site-spaces`, { spaceId: space.id });
    const other = await team.admin.rest('POST', `${siteBase(team.site)}/site-spaces`, { spaceId: (await createSpace(team.admin, org, 'Other')).id });
    const seq = await lastEventSeq(server);
    expect((await team.edit.rest('PATCH', siteBase(team.site), { title: 'Mine now' })).status).toBe(403);
    expect((await team.edit.rest('POST', `${siteBase(team.site)}/share-links`, { name: 'Leak' })).status).toBe(403);
    expect((await team.admin.rest('PATCH', siteBase(team.site), { title: 'x' })).status).toBe(400);
    expect((await team.admin.rest('PATCH', `${siteBase(team.site)}/site-spaces/${other.body.id}`, { path: siteSpace.body.path })).status).toBe(409);
    expect(await typesSince(org, seq)).toEqual([]);
  });
});

describe('translation, OpenAPI spec and integration events', () => {
  it('records translations created, updated and deleted', async () => {
    const team = await newOrganizationWithRoles(server);
    const org = team.organization.id;
    const seq = await lastEventSeq(server);
    const created = await team.admin.rest('POST', `/v1/orgs/${org}/translations`, { title: 'French', languages: ['fr'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const path = `/v1/orgs/${org}/translations/${created.body.id}`;
    expect((await team.admin.rest('PUT', path, { title: 'French (France)' })).status).toBe(200);
    expect((await team.edit.rest('DELETE', path)).status).toBe(403);
    expect((await team.admin.rest('PUT', path, { title: '' })).status).toBe(400);
    expect((await team.admin.rest('DELETE', path)).status).toBe(204);
    const events = await eventsSince(org, seq);
    expect(events.map((e) => e.type)).toEqual(['translation.created', 'translation.updated', 'translation.deleted']);
    expect(events[0]).toMatchObject({
      actorUserId: team.admin.user.id,
      target: { translationId: created.body.id },
      payload: { object: 'translation-settings', title: 'French', languages: ['fr'] },
    });
    expect(events[1].payload).toMatchObject({ title: 'French (France)', changes: ['title'] });
  });

  it('records OpenAPI specs created, updated, processed (by the job, without an actor) and deleted', async () => {
    const team = await newOrganizationWithRoles(server);
    const org = team.organization.id;
    const text = JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '1.2.3' }, paths: {} });
    const seq = await lastEventSeq(server);
    const created = await team.admin.rest('POST', `/v1/orgs/${org}/openapi`, { slug: 'pets', source: { text } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await team.admin.rest('POST', `/v1/orgs/${org}/openapi`, { slug: 'pets', source: { text } })).status).toBe(409);
    // The same text again is a no-op (no event); a new text is an update, processed again.
    expect((await team.admin.rest('PUT', `/v1/orgs/${org}/openapi/pets`, { source: { text } })).status).toBe(200);
    expect((await team.admin.rest('PUT', `/v1/orgs/${org}/openapi/pets`, { source: { text: text.replace('1.2.3', '1.2.4') } })).status).toBe(200);
    for (let i = 0; i < 20 && (await server.runDueJobs()) > 0; i++);
    expect((await team.admin.rest('DELETE', `/v1/orgs/${org}/openapi/pets`)).status).toBe(204);
    const events = await eventsSince(org, seq);
    expect(events.map((e) => e.type)).toEqual(['openapi_spec.created', 'openapi_spec.updated', 'openapi_spec.processed', 'openapi_spec.deleted']);
    expect(events[0]).toMatchObject({
      actorUserId: team.admin.user.id,
      target: { openAPISpecId: created.body.id },
      payload: { object: 'openapi-spec', slug: 'pets', processingState: 'pending' },
    });
    // The first revision's job finds its source replaced: it records nothing; the second's announces the outcome.
    expect(events[2]).toMatchObject({
      actorUserId: null,
      door: null,
      payload: { slug: 'pets', processingState: 'complete', lastVersion: expect.stringMatching(/^[0-9A-Za-z]{20}$/) as unknown, title: 'Pets' },
    });
    expect(JSON.stringify(events)).not.toContain('"paths"');
  });

  it('records an integration published, installed, updated, uninstalled and unpublished', async () => {
    const team = await newOrganizationWithRoles(server);
    const org = team.organization.id;
    const name = `events-${Date.now().toString(36)}`;
    const space = await createSpace(team.admin, org);
    const seq = await lastEventSeq(server);
    const body = {
      organization: org,
      title: 'Events',
      description: 'Listens',
      scopes: ['space:views:read'],
      script: 'export default {}',
      secrets: { KEY: 'sealed-secret-value' },
    };
    expect((await team.admin.rest('POST', `/v1/integrations/${name}`, body)).status).toBe(200);
    const install = `mutation($o: ID!, $name: String!, $input: InstallIntegrationInput!) { installIntegration(organizationId: $o, integrationName: $name, input: $input) { id } }`;
    const installed = await team.admin.gql(install, { o: org, name, input: {} });
    expect(installed.errors).toBeUndefined();
    expect((await team.admin.gql(install, { o: org, name, input: { space_selection: 'selected', spaces: [space.id] } })).errors).toBeUndefined();
    // Back to every space: an update; the same request again changes nothing and announces nothing.
    expect((await team.admin.gql(install, { o: org, name, input: {} })).errors).toBeUndefined();
    expect((await team.admin.gql(install, { o: org, name, input: {} })).errors).toBeUndefined();
    expect((await team.admin.gql(install, { o: org, name, input: { spaces: ['no-such-space'] } })).errors?.[0]?.message).toMatch(/no space/);
    const uninstall = `mutation($o: ID!, $name: String!) { uninstallIntegration(organizationId: $o, integrationName: $name) }`;
    expect((await team.admin.gql(uninstall, { o: org, name })).data.uninstallIntegration).toBe(true);
    expect((await team.admin.gql(uninstall, { o: org, name })).data.uninstallIntegration).toBe(false);
    expect((await team.admin.rest('DELETE', `/v1/integrations/${name}`)).status).toBe(204);
    const events = await eventsSince(org, seq);
    expect(events.map((e) => e.type)).toEqual([
      'integration.published',
      'integration.installed',
      'integration.updated',
      'integration.updated',
      'integration.uninstalled',
      'integration.unpublished',
    ]);
    expect(events[0]).toMatchObject({ target: { integrationName: name }, payload: { object: 'integration', name, version: 1, title: 'Events' } });
    const installationId = installed.data.installIntegration.id;
    expect(events[1]).toMatchObject({
      door: 'graphql',
      operation: 'installIntegration',
      target: { integrationName: name, installationId },
      payload: { object: 'integration-installation', id: installationId },
    });
    expect(events[2].payload).toMatchObject({ space_selection: 'selected', spaces: [space.id], changes: ['space_selection', 'spaces'] });
    // Every space again: the selection changes, and the list of selected spaces empties.
    expect(events[3].payload).toMatchObject({ space_selection: 'all', changes: ['space_selection', 'spaces'] });
    expect(events[4]).toMatchObject({ target: { installationId }, payload: { id: installationId } });
    expect(JSON.stringify(events)).not.toMatch(/sealed-secret-value|export default/);
  });
});
