/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const ORGANIZATION = /* GraphQL */ `
  fragment OrganizationFields on Organization {
    object id title createdAt emailDomains hostname type useCase communityType defaultRole
    defaultContent { type site } sso ai inviteLinks plan
    urls { location app logo }
    trial { status count endDate decision }
    customHostname mergeRules { type }
    permissions {
      view admin ownTeam createContent createOpenAPISpec ingestConversations viewBilling listMembers listTeams listIntegrations
      access listInstallations installIntegration
    }
  }
`;
