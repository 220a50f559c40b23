import type { Config } from './config.js';

/**
 * One REST operation of the contract, as data: which GraphQL document serves it and with what status.
 * Defaults: path and query parameters map to the document's variables of the same name (coerced by the
 * variable's GraphQL type; unknown query parameters are ignored), each JSON body field maps to the
 * variable of its name, and the response body is the data of the document's single root field.
 */
export type Route = {
  /** The contract's operation id (shared/contract/operations.tsv). */
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The contract's path, with `{param}` placeholders. */
  path: string;
  /** A GraphQL document with exactly one operation and one root field. */
  document: string;
  /** Success status; 204 answers with no body. */
  status: 200 | 201 | 204;
  /**
   * `input`: the whole JSON body is the variable `$input` instead of one variable per field. `bytes`:
   * the body's bytes, unparsed, are the variable `$body` (a scalar that takes them), for a payload the
   * domain parses off the thread that serves requests.
   */
  body?: 'input' | 'bytes';
  /**
   * The body may be left out (the contract's `requestBody` is not required): no body reads as an empty
   * object. Without it, a route that takes a body answers 400 when none is sent (see `bodyOf`).
   */
  optionalBody?: true;
  /** The JSON Schema of a `bytes` body (what the domain accepts), for the REST reference. */
  bodySchema?: (config: Config) => Record<string, unknown>;
  /** The largest body, from the configuration, when it is not BODY_LIMIT (`bytes` bodies only). */
  bodyLimit?: (config: Config) => string;
  /**
   * A create-or-update: the root field answers `{created, <entity>}` and the body is the entity, with
   * 201 (and its Location) when it was created, else `status`.
   */
  upsert?: { entity: string };
};
