/**
 * Where a change came from, as the door that serves the request learns it: recorded with every domain
 * event (the audit log's who and how). Filled in by the doors (src/http/request-facts.ts): the REST
 * router knows its operation at once, the GraphQL door once the operation is resolved. Empty for the
 * server's own work (jobs, the command line).
 */
export type RequestOrigin = {
  door?: 'rest' | 'graphql';
  /** REST: the contract's operation id. GraphQL: the mutation's root field(s), comma-separated. */
  operation?: string;
  /** The client's address, as the trusted proxies report it. */
  clientIp?: string;
};
