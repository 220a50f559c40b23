/** GraphQL's variable-coercion messages echo the values given; both doors rebuild them without. */
import { beforeAll, describe, expect, it } from 'vitest';
import { restMessage } from '../rest-facade/router.js';
import { Organization } from '../src/domain/organizations/index.js';
import { parseVariableError, variableErrorMessage } from '../src/http/variable-errors.js';
import { newOrganizationWithRoles, type OrganizationWithRoles } from './support/factories.js';
import { aggregatePath } from './support/insights.js';
import { useTestServer } from './support/server.js';
import { insertSite } from './support/sites.js';

const secretInput = '{ script: "run(); Then(); more", secrets: { KEY: "s3cr3t; Value" } }';

describe('variable errors', () => {
  it('splits a message whose echoed value itself holds "; " sentences', () => {
    const message = `Variable "$input" got invalid value ${secretInput}; Field "title" of required type "String!" was not provided.`;
    expect(parseVariableError(message)).toEqual({ variable: 'input', path: null, detail: 'Field "title" of required type "String!" was not provided.' });
    expect(restMessage(message)).toBe('title: is required');
    expect(variableErrorMessage(message)).toBe('Variable "$input": Field "title" of required type "String!" was not provided.');
    expect(variableErrorMessage(message)).not.toContain('s3cr3t');
  });

  it('keeps the path of a nested value', () => {
    const message = 'Variable "$input" got invalid value "xx" at "input.languages[0]"; Value "xx" does not exist in "TranslationLanguage" enum.';
    expect(restMessage(message)).toMatch(/^languages\[0\]: /);
    expect(variableErrorMessage(message)).toBe('Variable "$input" at "input.languages[0]": Value "xx" does not exist in "TranslationLanguage" enum.');
  });

  it('leaves other messages alone', () => {
    expect(parseVariableError('Cannot query field "x" on type "Query".')).toBeNull();
    expect(variableErrorMessage('Syntax Error: Unexpected Name "x".')).toBe('Syntax Error: Unexpected Name "x".');
  });
});

const server = useTestServer();
let team: OrganizationWithRoles;
beforeAll(async () => {
  team = await newOrganizationWithRoles(server);
});

describe('through the REST door', () => {
  it('name the field and what it expects in plain words, changing nothing', async () => {
    const path = `/v1/orgs/${team.organization.id}`;
    const before = await server.em().findOneOrFail(Organization, { id: team.organization.id });
    const cases: [unknown, string | RegExp][] = [
      [{ title: 42 }, 'title: expected a string'],
      [{ title: { a: 1 } }, 'title: expected a string'],
      [{ title: [{}] }, 'title: expected a string'],
      [{ sso: 'yes' }, 'sso: expected a boolean (true or false)'],
      [{ sso: 1 }, 'sso: expected a boolean (true or false)'],
      [{ defaultRole: 'owner' }, 'defaultRole: expected one of: admin, create, review, edit, comment, read'],
      [{ defaultRole: 5 }, 'defaultRole: expected one of: admin, create, review, edit, comment, read'],
      [{ emailDomains: [7] }, 'emailDomains[0]: expected a string'],
      [{ emailDomains: ['a.example', null] }, 'emailDomains[1]: expected a string, not null'],
      [{ defaultContent: 'site' }, 'defaultContent: expected an object'],
      [{ defaultContent: { type: 'site', site: 3 } }, 'defaultContent.site: expected a string'],
      [{ defaultContent: { type: 'site', site: null } }, 'defaultContent.site: expected a string, not null'],
      [{ defaultContent: { type: 'site', site: 's', extra: 1 } }, 'defaultContent.extra: unknown field'],
      [{ defaultContent: { site: 's' } }, 'defaultContent.type: is required'],
    ];
    for (const [body, message] of cases) {
      const res = await team.admin.rest('PATCH', path, body);
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error: { code: 400, message } });
    }
    const site = await insertSite(server, team.organization.id);
    const limit = await team.admin.rest('POST', aggregatePath(site), { range: 'last7Days', limit: 'ten' });
    expect(limit.body).toEqual({ error: { code: 400, message: 'limit: expected an integer' } });
    const precision = await team.admin.rest('POST', aggregatePath(site), { range: 'last7Days', select: [{ column: 'events', precision: 1.5 }] });
    expect(precision.body).toEqual({ error: { code: 400, message: 'select[0].precision: expected an integer' } });
    const after = await server.em().findOneOrFail(Organization, { id: team.organization.id });
    expect(after).toEqual(before);
  });

  it('answer a body that is JSON but no object with 400, through both doors', async () => {
    for (const body of ['null', '5', '"a"', 'true']) {
      const res = await fetch(`${server.url}/v1/orgs/${team.organization.id}/collections`, {
        method: 'POST',
        headers: { authorization: `Bearer ${team.admin.token}`, 'content-type': 'application/json' },
        body,
      });
      expect({ body, status: res.status, answer: await res.json() }).toEqual({
        body,
        status: 400,
        answer: { error: { code: 400, message: 'body: expected a JSON object' } },
      });
    }
    const array = await team.admin.rest('POST', `/v1/orgs/${team.organization.id}/collections`, ['title']);
    expect(array.body).toEqual({ error: { code: 400, message: 'body: expected a JSON object' } });
    const graphql = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${team.admin.token}`, 'content-type': 'application/json' },
      body: 'null',
    });
    expect(graphql.status).toBe(400);
    expect((await graphql.json()).errors[0]).toMatchObject({ message: 'body: expected a JSON object', extensions: { code: 'BAD_REQUEST' } });
  });
});
