/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const OPENAPI_SPEC = /* GraphQL */ `
  fragment OpenAPISpecFields on OpenAPISpec {
    object id createdAt updatedAt slug sourceURL processingState lastVersion lastProcessedAt lastProcessErrorCode
    permissions { view edit } urls { location app }
  }
`;
