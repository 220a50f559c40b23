import { ORGANIZATION } from '../organizations/index.js';

/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const INTEGRATION = /* GraphQL */ `
  fragment IntegrationFields on Integration {
    object name version title description summary previewImages target verified visibility scopes categories
    blocks { id title description icon urlUnfurl markdown { codeblock body } }
    contentSources { id title description icon configuration { componentId } }
    configurations externalLinks { url label }
    owner { ...OrganizationFields }
    urls { location icon app assets publicEndpoint publicContentEndpoint }
    permissions { admin install }
    contentSecurityPolicy
  }
  ${ORGANIZATION}
`;

export const INTEGRATION_INSTALLATION = /* GraphQL */ `
  fragment IntegrationInstallationFields on IntegrationInstallation {
    id status space_selection site_selection spaces configuration createdAt updatedAt
    urls { location app publicEndpoint publicContentEndpoint } externalIds target { organization }
  }
`;

/** 0.202.0's IntegrationSpaceInstallation and IntegrationSiteInstallation: the space (site) by its id. */
export const INTEGRATION_SPACE_INSTALLATION = /* GraphQL */ `
  fragment IntegrationSpaceInstallationFields on IntegrationContentInstallation {
    integration installation status configuration externalIds urls { location publicEndpoint publicContentEndpoint } space: spaceId
  }
`;

export const INTEGRATION_SITE_INSTALLATION = /* GraphQL */ `
  fragment IntegrationSiteInstallationFields on IntegrationContentInstallation {
    integration installation status configuration externalIds urls { location publicEndpoint publicContentEndpoint } site: siteId
  }
`;
