import { serverAudits, type AuditResult } from 'graphql-http';
import { describe, expect, it } from 'vitest';
import { newOrganizationWithRoles, newUser, rest } from './support/factories.js';
import { useTestServer } from './support/server.js';

/**
 * The GraphQL door against the GraphQL over HTTP specification (https://graphql.github.io/graphql-over-http/):
 * graphql-http's audit of servers, and the status of document errors by the media type asked for.
 */

const server = useTestServer();

/** Runs graphql-http's server audits one after the other, with `headers` added to each request. */
async function audit(headers: Record<string, string>): Promise<AuditResult[]> {
  const fetchFn: typeof fetch = (input, init) => {
    const sent = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) sent.set(name, value);
    return fetch(input, { ...init, headers: sent });
  };
  const results: AuditResult[] = [];
  for (const { fn } of serverAudits({ url: `${server.url}/graphql`, fetchFn })) results.push(await fn());
  return results;
}

const describeFailure = (result: AuditResult) => `${result.id} ${result.name}: ${'reason' in result ? result.reason : ''}`;

describe("graphql-http's server audit", () => {
  it('passes every audit with a token, as users send one: MUST, SHOULD and MAY', async () => {
    const caller = await newUser(server);
    const results = await audit({ authorization: `Bearer ${caller.token}` });
    expect(results.filter((result) => result.name.startsWith('MUST')).length).toBeGreaterThanOrEqual(13);
    expect(results.filter((result) => result.name.startsWith('SHOULD')).length).toBeGreaterThanOrEqual(23);
    expect(results.filter((result) => result.status !== 'ok').map(describeFailure)).toEqual([]);
  });

  it('passes every MUST and SHOULD without a token too', async () => {
    // Its GETs without a token meet the protection against cross-site requests: MAY audits only.
    const failed = (await audit({})).filter((result) => result.status !== 'ok');
    expect(failed.filter((result) => !result.name.startsWith('MAY')).map(describeFailure)).toEqual([]);
  });
});

describe('document errors by the media type asked for', () => {
  const documents: Record<string, { query: string; variables?: Record<string, unknown>; message: RegExp }> = {
    'does not parse': { query: '{ viewer { id }', message: /^Syntax Error/ },
    'does not validate': { query: '{ viewer { noSuchField } }', message: /Cannot query field "noSuchField"/ },
    'has too many tokens': { query: `{ ${'__typename '.repeat(6000)}}`, message: /Token limit of 5000 exceeded/ },
    'has too many aliases': { query: `{ ${Array.from({ length: 60 }, (_, i) => `a${i}: viewer { id }`).join(' ')} }`, message: /Aliases limit of 50 exceeded/ },
    'costs too much': {
      query: '{ organizations(limit: 1000) { items { spaces(limit: 1000) { items { id title } } } } }',
      message: /^Query cost limit of 2000000 exceeded/,
    },
    'has variables that do not coerce': { query: 'query($id: ID!) { space(id: $id) { id } }', variables: { id: null }, message: /^Variable "\$id"/ },
  };

  it('answers them 200 to a client that asks for application/json, the errors and their status in the body', async () => {
    const caller = await newUser(server);
    for (const [what, { query, variables, message }] of Object.entries(documents)) {
      const answer = await rest(server, caller.token, 'POST', '/graphql', { query, variables }, { accept: 'application/json' });
      expect(answer.status, what).toBe(200);
      expect(answer.headers.get('content-type'), what).toMatch(/^application\/json/);
      expect(answer.body.data, what).toBeUndefined();
      expect(answer.body.errors[0].message, what).toMatch(message);
      expect(answer.body.errors[0].extensions, what).toEqual({ code: 'BAD_REQUEST', status: 400 });
    }
  });

  it('keeps 400 for application/graphql-response+json, and for clients that name neither (curl, fetch)', async () => {
    const caller = await newUser(server);
    for (const accept of ['application/graphql-response+json', 'application/graphql-response+json, application/json', '*/*', undefined]) {
      for (const [what, { query, variables, message }] of Object.entries(documents)) {
        const answer = await rest(server, caller.token, 'POST', '/graphql', { query, variables }, accept ? { accept } : {});
        expect(answer.status, `${what}, Accept: ${accept}`).toBe(400);
        expect(answer.body.errors[0].message, what).toMatch(message);
      }
    }
  });

  it('leaves the failures of the request as a whole and the REST door as they were', async () => {
    const json = { accept: 'application/json' };
    const { organization, admin } = await newOrganizationWithRoles(server);
    const anonymous = await rest(server, null, 'POST', '/graphql', { query: '{ viewer { id } }' }, json);
    expect(anonymous.status).toBe(401);
    const empty = await rest(server, admin.token, 'POST', '/graphql', {}, json);
    expect(empty.status).toBe(400);
    const restAnswer = await rest(server, admin.token, 'GET', `/v1/orgs/${organization.id}/spaces?limit=nope`, undefined, json);
    expect(restAnswer).toMatchObject({ status: 400, body: { error: { code: 400 } } });
  });
});
