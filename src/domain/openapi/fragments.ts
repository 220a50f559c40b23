/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const OPENAPI_SPEC = /* GraphQL */ `
  fragment OpenAPISpecFields on OpenAPISpec {
    object id createdAt updatedAt slug sourceURL processingState visibility lastVersion lastProcessedAt lastProcessErrorCode
    lastProcessedErrorCount permissions { view edit } urls { location app }
  }
`;

export const OPENAPI_SPEC_VERSION = /* GraphQL */ `
  fragment OpenAPISpecVersionFields on OpenAPISpecVersion {
    object id createdAt url urls { location }
  }
`;
