import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { searchPathStatement } from '../src/db/search-path.js';
import { TeamMember } from '../src/domain/teams/index.js';
import { expectError, expectGqlError } from './support/expectations.js';
import { newOrganizationWithRoles } from './support/factories.js';
import { capturedLogs } from './support/logs.js';
import { createTeam } from './support/people.js';
import { useTestServer } from './support/server.js';

/*
 * What the database refuses reaches callers as a failure they can act on, and what nobody can act on
 * is answered 500 and logged with the request's id.
 */

const { logger, lines } = capturedLogs();
const server = useTestServer({}, { logger });

const entries = () => lines.map((line) => JSON.parse(line) as { level: number; msg: string; req?: { id?: string }; err?: { type?: string; message?: string } });

describe('an internal error', () => {
  it('answers 500 without internals and is logged with the request id, on both doors', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    // A rule of the database that no request is expected to break (a check constraint, which nothing maps).
    await server.em().getConnection().execute(`alter table "team" add constraint "team_title_test_check" check (title <> 'Forbidden by the test') not valid`);

    const restAnswer = await admin.rest(
      'PUT',
      `/v1/orgs/${organization.id}/teams`,
      { title: 'Forbidden by the test' },
      { 'x-request-id': 'req-internal-rest' },
    );
    expectError(restAnswer, 500, 'Internal server error');

    const mutation = `mutation($o: ID!) { createTeam(organizationId: $o, input: { title: "Forbidden by the test" }) { id } }`;
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json', 'x-request-id': 'req-internal-graphql' },
      body: JSON.stringify({ query: mutation, variables: { o: organization.id } }),
    });
    const answer = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(answer.errors).toEqual([expect.objectContaining({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 } })]);
    expect(JSON.stringify(answer)).not.toContain('team_title_test_check');

    for (const id of ['req-internal-rest', 'req-internal-graphql']) {
      const logged = entries().filter((entry) => entry.req?.id === id && entry.level >= 50 && entry.msg === 'unexpected error');
      expect(logged, id).toHaveLength(1);
      expect(logged[0].err?.message).toContain('team_title_test_check');
    }
  });
});

describe('a statement refused with a SQLSTATE that a closed database also sends', () => {
  it('is an internal error, not an outage: only what a session start reports counts as the database being unavailable', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    // 55000 with the very words of ALTER DATABASE … ALLOW_CONNECTIONS false, raised by a statement (a trigger).
    const connection = server.em().getConnection();
    await connection.execute(`create function "team_test_closed"() returns trigger language plpgsql as $$
      begin
        if new.title = 'Refused like a closed database' then
          raise exception 'database "docs" is not currently accepting connections' using errcode = '55000';
        end if;
        return new;
      end $$`);
    await connection.execute(`create trigger "team_test_closed" before insert on "team" for each row execute function "team_test_closed"()`);
    try {
      expectError(await admin.rest('PUT', `/v1/orgs/${organization.id}/teams`, { title: 'Refused like a closed database' }), 500, 'Internal server error');
      const answer = await admin.gql(`mutation($o: ID!) { createTeam(organizationId: $o, input: { title: "Refused like a closed database" }) { id } }`, {
        o: organization.id,
      });
      expectGqlError(answer, 'INTERNAL_SERVER_ERROR', 'Internal server error');
    } finally {
      await connection.execute(`drop trigger "team_test_closed" on "team"`);
      await connection.execute(`drop function "team_test_closed"()`);
    }
  });
});

describe('a reference to something that does not exist', () => {
  it('is a 400 naming the field', async () => {
    const { organization, admin } = await newOrganizationWithRoles(server);
    expectError(await admin.rest('PUT', `/v1/orgs/${organization.id}/teams`, { title: 't', members: [''] }), 400, 'members: no member "" in this organization');
    expectGqlError(
      await admin.gql(`mutation($o: ID!) { createTeam(organizationId: $o, input: { title: "t", members: [""] }) { id } }`, { o: organization.id }),
      'BAD_REQUEST',
      'members: no member "" in this organization',
    );
  });

  // Needs a second session to hold the team's deletion back until the request has checked it: a server.
  it.skipIf(!process.env.TEST_DATABASE_URL)('is a 400 naming the field when it went away during the request (a foreign key the database checks)', async () => {
    const { organization, admin, read } = await newOrganizationWithRoles(server);
    const schema = server.deps.orm.config.get('schema')!;
    for (const door of ['rest', 'graphql'] as const) {
      const team = await createTeam(admin, organization.id);
      const session = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await session.connect();
      try {
        await session.query(searchPathStatement(schema));
        await session.query('begin');
        // Reads go on; the request's insert of the membership waits for this transaction.
        await session.query('lock table "team_member" in share row exclusive mode');
        const answer =
          door === 'rest'
            ? admin.rest('PUT', `/v1/orgs/${organization.id}/teams/${team.id}/members/${read.user.id}`, {})
            : admin.gql(`mutation($o: ID!, $t: ID!, $u: ID!) { addTeamMember(organizationId: $o, teamId: $t, userId: $u) { team { role } } }`, {
                o: organization.id,
                t: team.id,
                u: read.user.id,
              });
        await waitForLockWaiter(session, 'team_member');
        await session.query('delete from "team" where "id" = $1', [team.id]);
        await session.query('commit');
        const message = `team: "${team.id}" does not exist`;
        if (door === 'rest') expectError((await answer) as Awaited<ReturnType<typeof admin.rest>>, 400, message);
        else expectGqlError((await answer) as Awaited<ReturnType<typeof admin.gql>>, 'BAD_REQUEST', message);
      } finally {
        await session.end();
      }
      expect(await server.em().count(TeamMember, { team: team.id })).toBe(0);
    }
  });
});

/** Waits until some session waits for a lock on `table` (the request reached its insert). */
async function waitForLockWaiter(session: pg.Client, table: string) {
  for (;;) {
    const { rows } = await session.query(`select count(*)::int as waiting from pg_locks where not granted and relation = $1::regclass`, [table]);
    if (rows[0].waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
