import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../rest-facade/route.js';
import { bodyOf } from '../rest-facade/route.js';
import { routes } from '../rest-facade/routes/index.js';
import { inReference, referenceBody } from './support/openapi.js';
import { examples, pathOf, startExampleWorld, type Example, type ExampleWorld } from './support/route-examples.js';

/**
 * `null` for a body field, through both doors: refused with a 400 naming the field where the field is
 * not nullable, taken (2xx) where null means something (removes, makes a guest, ...). The fields and
 * their nullability come from the reference's request body schemas; the table below records where the
 * contract (which wins) or this server's documented choices differ from the reference.
 */

/** What null for a field gets: taken, refused naming the field, or refused as a field the server does not take. */
type Verdict = 'nullable' | 'not nullable' | 'unknown';

const DIFFERENCES: Record<string, Record<string, Verdict>> = {
  // Fields of the reference's bodies that the contract's do not have (the contract's space update takes
  // editMode, title, defaultLevel and emoji; its translation settings a title and their languages).
  updateSpaceById: { icon: 'unknown' },
  createChangeRequest: { agentTaskId: 'unknown' },
  postCommentInSpace: { tableCell: 'unknown' },
  postCommentInChangeRequest: { tableCell: 'unknown' },
  createTranslation: { instructions: 'unknown', languages: 'not nullable' },
  updateTranslation: { languages: 'not nullable' },
  // Null means guest for organization roles only (contract §2.1): a content link's level cannot be null.
  updateOrganizationInviteById: { level: 'not nullable' },
  createOrganizationInvite: { level: 'not nullable' },
  // An optional field of a resource that a body can set can be removed again: null removes it, as the
  // contract says of `proxy` and `condition`; the reference's bodies have no other way to remove these.
  updateCollectionById: { description: 'nullable' },
  updateOrganizationById: { hostname: 'nullable' },
  updateSiteById: { basename: 'nullable' },
  updateOrganizationSAMLProvider: { defaultTeam: 'nullable' },
  // Creating takes the update's fields, null included (no default team).
  createOrganizationSAMLProvider: { defaultTeam: 'nullable' },
  // A publish without `secrets` keeps the stored ones; null (or {}) removes them (README).
  publishIntegration: { runtime: 'unknown', secrets: 'nullable' },
  // Webhooks (not in the reference): null removes the description only.
  createWebhook: { active: 'not nullable', description: 'nullable' },
  updateWebhook: { url: 'not nullable', eventTypes: 'not nullable', active: 'not nullable', description: 'nullable' },
};

/** The optional body fields of an operation and what null gets for each. */
function nullCases(operationId: string): [string, Verdict][] {
  const reference = inReference(operationId) ? referenceBody(operationId) : undefined;
  const verdicts = new Map<string, Verdict>();
  for (const [name, property] of reference?.properties ?? []) {
    if (!property.required) verdicts.set(name, property.nullable ? 'nullable' : 'not nullable');
  }
  for (const [name, verdict] of Object.entries(DIFFERENCES[operationId] ?? {})) verdicts.set(name, verdict);
  return [...verdicts];
}

let world: ExampleWorld;

beforeAll(async () => {
  world = await startExampleWorld();
});
afterAll(() => world?.server.stop());

/** The example's body with null at `field` (a dotted path: objects on the way are made when absent). */
function withNull(example: Example, field: string): Record<string, unknown> {
  const body = structuredClone(example.body);
  const names = field.split('.');
  let at: Record<string, unknown> = body;
  for (const name of names.slice(0, -1)) at = (at[name] ??= {}) as Record<string, unknown>;
  at[names.at(-1)!] = null;
  return body;
}

async function throughRest(route: Route, field: string) {
  const example = await examples[route.operationId](world);
  return world.admin.rest(route.method, pathOf(route, example.params), withNull(example, field));
}

/** The route's own document sent to /graphql with the variables the REST door would give it. */
async function throughGraphQL(route: Route, field: string) {
  const example = await examples[route.operationId](world);
  const body = withNull(example, field);
  return world.admin.gql(route.document, { ...example.params, ...(route.body === 'input' ? { input: body } : body) });
}

const escaped = (field: string) => field.replaceAll('.', '\\.');

/** Refused null through both doors: a 400 whose message starts with the field (REST) or names it (GraphQL). */
async function expectRefused(route: Route, field: string) {
  const rest = await throughRest(route, field);
  expect(rest.status, JSON.stringify(rest.body)).toBe(400);
  expect(rest.body.error.message).toMatch(new RegExp(`^${escaped(field)}: `));
  const gql = await throughGraphQL(route, field);
  expect(gql.errors?.[0]?.extensions?.code, JSON.stringify(gql.errors)).toBe('BAD_REQUEST');
  expect(gql.errors![0].message).toMatch(new RegExp(`\\b${escaped(field)}\\b`));
}

/** The routes with an optional body field to try (a bytes body is parsed by the domain, see insights-validation). */
const withOptionalFields = routes.filter((route) => bodyOf(route) !== 'none' && route.body !== 'bytes' && nullCases(route.operationId).length > 0);

describe.each(withOptionalFields.map((route) => [route.operationId, route] as const))('%s', (_, route) => {
  it.each(nullCases(route.operationId))('%s: null is %s', async (field, verdict) => {
    if (verdict === 'not nullable') return expectRefused(route, field);
    const rest = await throughRest(route, field);
    if (verdict === 'unknown') {
      // Not a field of the operation: refused as such (GraphQL's input types do not declare it either).
      expect(rest.status, JSON.stringify(rest.body)).toBe(400);
      expect(rest.body.error.message).toBe(`${field}: unknown field`);
      return;
    }
    expect(rest.status, JSON.stringify(rest.body)).toBeLessThan(300);
    const gql = await throughGraphQL(route, field);
    expect(gql.errors, JSON.stringify(gql.errors)).toBeUndefined();
  });
});

/** Fields inside an optional object, whose own optional fields are not nullable either. */
const NESTED: [operationId: string, field: string][] = [
  ['moveSpace', 'position.before'],
  ['moveCollection', 'position.after'],
  ['moveSiteSection', 'position.before'],
  ['moveSiteSectionGroup', 'position.after'],
  ['moveSiteSpace', 'position.before'],
  ['createOpenAPISpec', 'source.url'],
];

describe('nested fields', () => {
  it.each(NESTED)('%s: null for %s is refused', async (operationId, field) => {
    await expectRefused(
      routes.find((route) => route.operationId === operationId)!,
      field,
    );
  });
});
