/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const SPACE = /* GraphQL */ `
  fragment SpaceFields on Space {
    object id title emoji visibility createdAt updatedAt deletedAt editMode
    urls { location app published public icon }
    organization parent revision defaultLevel mergeRules { type }
    comments changeRequests changeRequestsOpen changeRequestsDraft
    permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration }
  }
`;
