import { expect } from 'vitest';
import { rest, type Caller, type Response } from './factories.js';
import { formatErrors, validateResponse } from './openapi.js';
import type { TestServer } from './server.js';

/** Asserts a REST error: the status and the contract's error body `{error: {code, message}}` (any message, when not given). */
export function expectError(res: Pick<Response, 'status' | 'body'>, code: number, message?: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(code);
  const expected = message === undefined ? expect.any(String) : typeof message === 'string' ? message : expect.stringMatching(message);
  expect(res.body).toEqual({ error: { code, message: expected } });
}

/** Asserts that a GraphQL answer failed, the first error with `code` (and `message`, when given). */
export function expectGqlError(res: { errors?: { message: string; extensions?: { code?: string } }[] }, code: string, message?: string | RegExp) {
  expect(res.errors, `expected a GraphQL error: ${JSON.stringify(res)}`).toBeDefined();
  expect(res.errors![0].extensions?.code).toBe(code);
  if (typeof message === 'string') expect(res.errors![0].message).toBe(message);
  else if (message) expect(res.errors![0].message).toMatch(message);
}

/** Asserts that a REST response body conforms to the reference's response schema of the operation for its status. */
export function expectContract(operationId: string, res: Pick<Response, 'status' | 'body'>) {
  const errors = validateResponse(operationId, res.status, res.body);
  expect(errors, `${operationId}: ${formatErrors(errors)}\n${JSON.stringify(res.body, null, 2)}`).toEqual([]);
}

/** Asserts that the list at `path` refuses each of `limits` (outside 1..1000) with the same 400. */
export async function expectLimitsRefused(caller: Caller, path: string, limits: number[]) {
  for (const limit of limits) expectError(await caller.rest('GET', `${path}?limit=${limit}`), 400, 'limit: must be an integer from 1 to 1000');
}

/** A REST request by method and path, with its body when it has one. */
export type RestCall = [method: string, path: string, body?: unknown];

/**
 * Asserts that each call answers 401 with the contract's error body without a token and, unless
 * `badToken` is false, with a token that is no one's.
 */
export async function expectAuthRequired(server: TestServer, calls: RestCall[], { badToken = true } = {}) {
  for (const [method, path, body] of calls) {
    expectError(await rest(server, null, method, path, body), 401, 'Authentication required: send "Authorization: Bearer <token>"');
    if (badToken) expectError(await rest(server, 'dp_not-a-real-token', method, path, body), 401, 'Invalid or revoked API token');
  }
}

/** Asserts that a GraphQL request without a token fails with 401 UNAUTHENTICATED; answers the response body. */
export async function expectGqlAuthRequired(server: TestServer, query: string, variables?: Record<string, unknown>) {
  const res = await rest(server, null, 'POST', '/graphql', { query, variables });
  expect(res.status).toBe(401);
  expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  return res.body;
}
