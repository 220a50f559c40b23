import { describe, expect, it } from 'vitest';
import { ContentGrant } from '../src/domain/grants/index.js';
import { OpenAPISpec } from '../src/domain/openapi/index.js';
import { Organization } from '../src/domain/organizations/index.js';
import { TeamMember } from '../src/domain/teams/index.js';
import { newOrganizationWithSpace } from './support/content.js';
import { newOrganization, newOrganizationWithRoles, type Caller } from './support/factories.js';
import { createTeam } from './support/people.js';
import { useTestServer } from './support/server.js';

/*
 * Identical requests fired at once end in success or 409, never 500, through both doors. On the
 * embedded database (one connection) they interleave less than on a server, but the same holds.
 */

const server = useTestServer();

const times = <T>(n: number, request: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => request(i)));

/** Statuses of GraphQL answers as the REST door would give them: 200, or the first error's status. */
const gqlStatuses = (answers: { status: number; errors?: { extensions?: Record<string, unknown> }[] }[]) =>
  answers.map((answer) => (answer.errors?.[0]?.extensions?.status as number | undefined) ?? answer.status);

function expectNoServerErrors(statuses: number[]) {
  expect(statuses.filter((status) => status >= 500)).toEqual([]);
}

describe('adding the same user to a team at once', () => {
  it('answers 204 to each of 100 REST requests and makes one membership', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const team = await createTeam(admin, organization.id);
    const answers = await times(100, () => admin.rest('PUT', `/v1/orgs/${organization.id}/teams/${team.id}/members`, { add: [read.user.id] }));
    expect(answers.map((answer) => answer.status)).toEqual(Array(100).fill(204));
    expect(await server.em().count(TeamMember, { team: team.id, user: read.user.id })).toBe(1);
  });

  it('succeeds for each of 50 GraphQL requests, by e-mail and with a role, and makes one membership', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const team = await createTeam(admin, organization.id);
    const mutation = `mutation($o: ID!, $t: ID!, $input: UpdateTeamMembersInput!) { updateTeamMembers(organizationId: $o, teamId: $t, input: $input) }`;
    const input = { add: [read.user.email], memberships: { [read.user.email]: { role: 'owner' } } };
    const answers = await times(50, () => admin.gql(mutation, { o: organization.id, t: team.id, input }));
    expect(answers.map((answer) => answer.errors)).toEqual(Array(50).fill(undefined));
    const memberships = await server.em().find(TeamMember, { team: team.id });
    expect(memberships.map((m) => [m.user, m.role])).toEqual([[read.user.id, 'owner']]);
  });
});

describe('granting the same role on a space at once', () => {
  it('succeeds for each of 20 GraphQL requests and makes one grant with the role', async () => {
    const { admin, read, space } = await newOrganizationWithSpace(server);
    const mutation = `mutation($id: ID!, $input: GrantInput!) { grantSpaceRole(spaceId: $id, input: $input) { id role user { id } } }`;
    const answers = await times(20, () => admin.gql(mutation, { id: space.id, input: { user: read.user.id, role: 'edit' } }));
    expect(answers.map((answer) => answer.errors)).toEqual(Array(20).fill(undefined));
    const grants = await server.em().find(ContentGrant, { space: space.id });
    expect(grants.map((g) => [g.user, g.role])).toEqual([[read.user.id, 'edit']]);
    // Every answer is that grant.
    expect(new Set(answers.map((answer) => answer.data.grantSpaceRole.id))).toEqual(new Set([grants[0].id]));
  });
});

describe('two organizations taking the same hostname at once', () => {
  async function twoOrganizations(admin: Caller) {
    return [await newOrganization(server, admin), await newOrganization(server, admin)] as const;
  }

  /** The hostname's sequential 409, as a second organization asking for it later reads it. */
  const takenMessage = (hostname: string) => `hostname: "${hostname}" is already used by another organization`;

  /** One organization got every one of its requests through, the other a 409 for each, and the hostname is the winner's. */
  async function expectOneWinner(hostname: string, ids: readonly string[], statuses: number[], messages: (string | undefined)[]) {
    expectNoServerErrors(statuses);
    const winner = ids[statuses.indexOf(200)];
    ids.forEach((id, i) => {
      expect(statuses[i]).toBe(id === winner ? 200 : 409);
      if (id !== winner) expect(messages[i]).toBe(takenMessage(hostname));
    });
    const holders = await server.em().find(Organization, { hostname });
    expect(holders.map((o) => o.id)).toEqual([winner]);
  }

  it('answers 200 for one organization and 409 for the other through REST, as sequentially', async () => {
    const { admin } = await newOrganizationWithRoles(server);
    const [first, second] = await twoOrganizations(admin);
    const hostname = `race-${first.id.slice(0, 12).toLowerCase()}`;
    const ids = Array.from({ length: 20 }, (_, i) => (i % 2 ? second.id : first.id));
    const answers = await Promise.all(ids.map((id) => admin.rest('PATCH', `/v1/orgs/${id}`, { hostname })));
    await expectOneWinner(
      hostname,
      ids,
      answers.map((a) => a.status),
      answers.map((a) => a.body?.error?.message),
    );
  });

  it('answers data for one organization and CONFLICT for the other through GraphQL', async () => {
    const { admin } = await newOrganizationWithRoles(server);
    const [first, second] = await twoOrganizations(admin);
    const hostname = `race-${second.id.slice(0, 12).toLowerCase()}`;
    const ids = Array.from({ length: 20 }, (_, i) => (i % 2 ? second.id : first.id));
    const mutation = `mutation($id: ID!, $input: UpdateOrganizationInput!) { updateOrganization(id: $id, input: $input) { id } }`;
    const answers = await Promise.all(ids.map((id) => admin.gql(mutation, { id, input: { hostname } })));
    for (const answer of answers) if (answer.errors) expect(answer.errors[0].extensions?.code).toBe('CONFLICT');
    await expectOneWinner(
      hostname,
      ids,
      gqlStatuses(answers),
      answers.map((a) => a.errors?.[0]?.message),
    );
  });
});

describe('creating the same OpenAPI specification at once', () => {
  const source = { text: 'openapi: 3.0.0\ninfo: { title: Race, version: "1" }\npaths: {}\n' };

  it('answers one 201 and nineteen 200 to 20 REST PUTs of a new slug, and stores one specification', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const answers = await times(20, () => admin.rest('PUT', `/v1/orgs/${organization.id}/openapi/race-rest`, { source }));
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(19).fill(200), 201]);
    const specs = await server.em().find(OpenAPISpec, { organization: organization.id, slug: 'race-rest' });
    expect(specs).toHaveLength(1);
    // The first gave it its source; the same text again changes nothing.
    expect(specs[0].sourceRevision).toBe(1);
    expect(new Set(answers.map((answer) => answer.body.id))).toEqual(new Set([specs[0].id]));
  });

  it('reports one creation among 20 GraphQL puts of a new slug', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const mutation = `mutation($o: ID!, $slug: String!, $input: PutOpenAPISpecInput!) { putOpenAPISpec(organizationId: $o, specSlug: $slug, input: $input) { created spec { id } } }`;
    const answers = await times(20, () => admin.gql(mutation, { o: organization.id, slug: 'race-graphql', input: { source } }));
    expect(answers.map((answer) => answer.errors)).toEqual(Array(20).fill(undefined));
    expect(answers.filter((answer) => answer.data.putOpenAPISpec.created)).toHaveLength(1);
    expect(await server.em().count(OpenAPISpec, { organization: organization.id, slug: 'race-graphql' })).toBe(1);
  });

  it('answers 201 to one of 20 POSTs of a new slug and 409 to the others, as sequentially', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    const answers = await times(20, () => admin.rest('POST', `/v1/orgs/${organization.id}/openapi`, { slug: 'race-post', source }));
    const statuses = answers.map((answer) => answer.status);
    expectNoServerErrors(statuses);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect(answer.status).toBe(409);
      expect(answer.body.error.message).toBe('slug: the organization already has a specification "race-post"');
    }
    expect(await server.em().count(OpenAPISpec, { organization: organization.id, slug: 'race-post' })).toBe(1);
  });
});
