/** Selections of exactly the contract's fields of each resource, shared by the routes. */

export const USER = /* GraphQL */ `
  fragment UserFields on User { object id displayName email photoURL urls { location } }
`;

export const ORGANIZATION = /* GraphQL */ `
  fragment OrganizationFields on Organization {
    object id title createdAt emailDomains hostname type useCase communityType defaultRole
    defaultContent { type site } sso ai inviteLinks plan
    urls { location app logo }
    trial { status endDate decision }
    customHostname
    permissions {
      view admin ownTeam createContent createOpenAPISpec ingestConversations viewBilling listMembers listTeams listIntegrations
    }
  }
`;

export const COLLECTION = /* GraphQL */ `
  fragment CollectionFields on Collection {
    object id title description organization parent defaultLevel
    urls { location app }
    permissions { view admin viewInviteLinks create }
  }
`;

export const SPACE = /* GraphQL */ `
  fragment SpaceFields on Space {
    object id title emoji visibility createdAt updatedAt deletedAt editMode
    urls { location app published public icon }
    organization parent revision defaultLevel
    comments changeRequests changeRequestsOpen changeRequestsDraft
    permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review }
  }
`;
