/**
 * Calling the current official client (`@gitbook/api@0.202.0`, installed as `gitbook-api-0.202`) in
 * tests: its operations as shared/contract/operations-current-client.tsv lists them, an assertion
 * that an answer has the listed status and validates against 0.202.0's reference, and the client's
 * error for a call that must fail.
 */
import { readFileSync } from 'node:fs';
import { GitBookAPI, GitBookAPIError } from 'gitbook-api-0.202';
// The package's index.d.ts imports './client' without an extension, which NodeNext resolution cannot
// follow: the client's methods are typed from dist/client (a type-only import, erased at run time).
import type { Api, MemberRole } from '../../node_modules/gitbook-api-0.202/dist/client.js';
import { expect } from 'vitest';
import type { Caller } from './factories.js';
import { currentReference, formatErrors } from './openapi.js';

export type Operation = { method: string; path: string; operationId: string; status: number };

/** A copy of shared/contract/operations-current-client.tsv, so that the suite runs from a lone clone. */
export const CURRENT_OPERATIONS_FIXTURE = new URL('../fixtures/operations-current-client.tsv', import.meta.url);

export const currentOperations: Operation[] = readFileSync(CURRENT_OPERATIONS_FIXTURE, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [, method, path, operationId, status] = line.split('\t') as [string, string, string, string, string];
    return { method, path, operationId, status: Number(status) };
  });

/** Asserts the operation's status and that its body validates against 0.202.0's schema; returns the body, as the client types it. */
export async function expectCurrent<T>(operationId: string, call: Promise<{ status: number; data: T }>): Promise<T> {
  const res = await call;
  const expected = currentOperations.find((operation) => operation.operationId === operationId)!.status;
  expect(res.status, `${operationId}: HTTP status`).toBe(expected);
  const errors = currentReference.validateResponse(operationId, res.status, res.data);
  expect(errors, `${operationId} does not match 0.202.0's schema:\n${formatErrors(errors)}\nbody: ${JSON.stringify(res.data, null, 2)}`).toEqual([]);
  return res.data;
}

/** The client's error for a call that must fail: its HTTP code and the contract's error body. */
export async function expectRefused(call: Promise<unknown>, code: number) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the call must fail').toBeInstanceOf(GitBookAPIError);
  expect((error as { code?: number }).code).toBe(code);
}

/** A role as the client types it (an enum of the role names). */
export const role = (name: string) => name as MemberRole;

/** The current client, calling the test server as `caller`. */
export const currentClientFor = (serverUrl: string, caller: Caller) =>
  new GitBookAPI({ authToken: caller.token, endpoint: serverUrl }) as GitBookAPI & Api<{ authToken?: string }>;
