import { TEAM } from '../teams/index.js';

/** Selections of exactly the contract's fields of this area's resources, shared by the routes. */

export const SAML_PROVIDER = /* GraphQL */ `
  fragment SAMLProviderFields on SAMLProvider {
    object id label ssoURL entityID certificate
    defaultTeam { ...TeamFields }
    defaultRole createdAt status
    service { acsURL startURL entityID }
    urls { location }
  }
  ${TEAM}
`;
