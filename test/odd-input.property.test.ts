import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DomainEvent } from '../src/events/entities.js';
import { createSpace } from './support/content.js';
import { newOrganizationWithRoles, type Caller, type OrganizationWithRoles } from './support/factories.js';
import { capturedLogs } from './support/logs.js';
import { useTestServer } from './support/server.js';

/**
 * Odd strings — any unicode, lone surrogates, NUL, quotes, braces, commas, backslashes, blanks — thrown
 * at a few mutations through both doors, as values, as object keys, as ids and as GraphQL literals: no
 * answer is a 500, and every mutation refused to an authenticated caller is in the audit log (one
 * `mutation.refused` row each), with nothing logged as failing to record it.
 */
const logs = capturedLogs('error');
// No rate limit: a 429 is not the caller's input, and is not recorded.
const server = useTestServer({ RATE_LIMIT_WRITES: '0', RATE_LIMIT_READS: '0' }, { logger: logs.logger });
let team: OrganizationWithRoles;
let admin: Caller;
let spaceId: string;
beforeAll(async () => {
  team = await newOrganizationWithRoles(server);
  admin = team.admin;
  spaceId = (await createSpace(admin, team.organization.id)).id;
});

const ODD_UNITS = [
  '\ud800',
  '\udc00',
  '\ud83d\ude00',
  '\u0000',
  '"',
  "'",
  '{',
  '}',
  '[',
  ']',
  ',',
  '\\',
  ' ',
  '\t',
  '\n',
  'NULL',
  'a',
  'é',
  '𠡯',
  '\u202e',
  '\ufeff',
];
const oddString = fc.oneof(
  fc.string({ unit: fc.constantFrom(...ODD_UNITS), maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  // What PostgreSQL's array and JSON syntaxes treat specially, whole.
  fc.constantFrom(' ', '  ', ' ,4𠡯ò', 'NULL', '\t', 'a b', '\\', '"', '{}', '\ud800', 'x\u0000'),
);

/** What the doors answered of one call: its status, and whether the mutation was refused (a 4xx other than 401 and 429). */
type Outcome = { status: number; refused: boolean };

async function rest(method: string, path: string, body: string): Promise<Outcome> {
  const res = await fetch(server.url + path, { method, headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' }, body });
  await res.text();
  return { status: res.status, refused: res.status >= 400 && res.status < 500 && res.status !== 401 && res.status !== 429 };
}

async function graphql(query: string, variables: Record<string, unknown>): Promise<Outcome> {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const answer = (await res.json()) as { errors?: { message: string; extensions?: { status?: number } }[] };
  // A document that does not read is no operation, as a body that is not JSON is none: not recorded.
  if (answer.errors?.some((error) => error.message.startsWith('Syntax Error'))) return { status: res.status, refused: false };
  const statuses = (answer.errors ?? []).map((error) => error.extensions?.status ?? res.status);
  const worst = Math.max(res.status, ...statuses.map((status) => (status >= 500 ? status : 0)));
  return { status: worst, refused: statuses.some((status) => status >= 400 && status < 500 && status !== 401 && status !== 429) };
}

/** A GraphQL string literal holding `value` (JSON's escapes are GraphQL's). */
const literal = (value: string) => JSON.stringify(value);
/**
 * A path segment: URLs cannot carry lone surrogates, so those are sent as U+FFFD; "." and ".." (even
 * percent-encoded) are dot segments that the URL itself resolves away, so they are sent as nothing.
 */
const segment = (value: string) => {
  const encoded = encodeURIComponent(value.toWellFormed());
  return encoded === '.' || encoded === '..' ? '' : encoded;
};

const CALLS: ((s: string) => Promise<Outcome>)[] = [
  (s) => rest('PATCH', `/v1/spaces/${spaceId}`, JSON.stringify({ title: s })),
  (s) => rest('PATCH', `/v1/spaces/${spaceId}`, JSON.stringify({ [s]: 'x' })),
  (s) => rest('POST', `/v1/orgs/${team.organization.id}/collections`, JSON.stringify({ title: s, description: s })),
  (s) => rest('PATCH', `/v1/orgs/${team.organization.id}/teams/${segment(s) || 'x'}`, JSON.stringify({ title: 'Team' })),
  (s) => rest('PATCH', `/v1/spaces/${segment(s) || 'x'}`, JSON.stringify({ title: s })),
  (s) => graphql('mutation($id: ID!, $title: String) { updateSpace(id: $id, input: { title: $title }) { id } }', { id: spaceId, title: s }),
  (s) => graphql('mutation($id: ID!, $input: UpdateSpaceInput!) { updateSpace(id: $id, input: $input) { id } }', { id: spaceId, input: { [s]: s } }),
  (s) => graphql(`mutation($id: ID!) { updateSpace(id: $id, input: { title: ${literal(s)} }) { id } }`, { id: spaceId }),
  (s) =>
    graphql('mutation($org: ID!, $team: ID!) { updateTeam(organizationId: $org, teamId: $team, input: { title: "Team" }) { id } }', {
      org: team.organization.id,
      team: s,
    }),
  (s) => graphql('mutation($id: ID!) { updateSpace(id: $id, input: { title: "ok" }) { id } }', { id: s }),
];

const refusalsRecorded = () => server.em().count(DomainEvent, { type: 'mutation.refused', actorUserId: admin.user.id });

describe('odd strings through both doors', () => {
  it('never answer 500, and every refused mutation is in the audit log', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(CALLS.length - 1), oddString, async (call, s) => {
        const before = await refusalsRecorded();
        const outcome = await CALLS[call](s);
        expect(outcome.status, `call ${call} with ${JSON.stringify(s)}`).toBeLessThan(500);
        expect(await refusalsRecorded(), `call ${call} with ${JSON.stringify(s)}: refused ${outcome.refused}`).toBe(before + (outcome.refused ? 1 : 0));
      }),
      // The reported cases first: a blank and a comma in an id (a malformed array literal), a lone surrogate, NUL in a key.
      {
        numRuns: 400,
        examples: [
          [3, ' '],
          [8, ' ,4𠡯ò'],
          [3, 'NULL'],
          [0, '\ud800'],
          [1, 'a\u0000'],
          [6, '\udc00'],
          [9, '\ud800'],
        ],
      },
    );
    expect(logs.lines.filter((line) => line.includes('could not record'))).toEqual([]);
  });
});
