import { describe, expect, it } from 'vitest';
import { newOrganizationWithRoles, rest } from './support/factories.js';
import { capturedLogs } from './support/logs.js';
import { useTestServer } from './support/server.js';

const { logger, lines } = capturedLogs();
const server = useTestServer({}, { logger });

describe('request logs', () => {
  it('are structured, carry a request id, and never contain a token', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    await admin.rest('GET', `/v1/orgs/${organization.id}`, undefined, { 'x-request-id': 'req-abc' });
    await rest(server, null, 'GET', '/v1/orgs', undefined, { authorization: `Bearer ${admin.token}x` });
    await admin.gql('{ viewer { id } }');
    const entries = lines.map((line) => JSON.parse(line));
    const request = entries.find((e) => e.req?.id === 'req-abc');
    expect(request).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: `/v1/orgs/${organization.id}` }, res: { statusCode: 200 } });
    expect(lines.join('\n')).not.toContain(admin.token);
  });

  it('carry the operation, door, viewer, status and duration of a REST call and of a GraphQL call', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    await admin.rest('GET', `/v1/orgs/${organization.id}`, undefined, { 'x-request-id': 'req-rest-facts' });
    await rest(server, admin.token, 'POST', '/graphql', { query: 'query LoggedViewer { viewer { id } }' }, { 'x-request-id': 'req-gql-facts' });
    await rest(server, null, 'GET', '/v1/orgs', undefined, { 'x-request-id': 'req-anonymous' });
    const entries = lines.map((line) => JSON.parse(line));
    const completed = (id: string) => entries.find((e) => e.req?.id === id && e.msg === 'request completed');
    const viewer = { viewerId: admin.user.id, tokenId: expect.any(String) };
    expect(completed('req-rest-facts')).toMatchObject({
      operationId: 'getOrganizationById',
      door: 'rest',
      ...viewer,
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(completed('req-gql-facts')).toMatchObject({
      operationId: 'LoggedViewer',
      door: 'graphql',
      ...viewer,
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    // Without a token: the operation, no viewer.
    const anonymous = completed('req-anonymous');
    expect(anonymous).toMatchObject({ operationId: 'listOrganizationsForAuthenticatedUser', door: 'rest', res: { statusCode: 401 } });
    expect(anonymous).not.toHaveProperty('viewerId');
    expect(lines.join('\n')).not.toContain(admin.token);
  });
});

describe('GET /healthz', () => {
  it('answers 503 when the database does not answer', async () => {
    const connection = server.deps.orm.em.getConnection();
    const execute = connection.execute.bind(connection);
    connection.execute = (() => Promise.reject(new Error('database down'))) as typeof connection.execute;
    try {
      const res = await rest(server, null, 'GET', '/healthz');
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('unavailable');
    } finally {
      connection.execute = execute;
    }
    expect((await rest(server, null, 'GET', '/healthz')).status).toBe(200);
  });
});
