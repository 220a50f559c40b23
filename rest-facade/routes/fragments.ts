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

export const SITE = /* GraphQL */ `
  fragment SiteFields on Site {
    object id type title hostname basename proxy { origin target } visibility published siteSpaces createdAt
    adaptiveContent { enabled } ads { status submittable } agentsContext
    features { id plan frozen }
    urls { location app published }
  }
`;

export const SITE_SPACE = /* GraphQL */ `
  fragment SiteSpaceFields on SiteSpace {
    object id path section space { ...SpaceFields } title default condition hasAdvancedCustomizationFeature
    urls { location published }
  }
  ${SPACE}
`;

export const SITE_SECTION = /* GraphQL */ `
  fragment SiteSectionFields on SiteSection {
    object id title description default path condition sectionGroup
    siteSpaces { ...SiteSpaceFields }
    urls { location published } icon
  }
  ${SITE_SPACE}
`;

export const SITE_SECTION_GROUP = /* GraphQL */ `
  fragment SiteSectionGroupFields on SiteSectionGroup {
    object id title sections { ...SiteSectionFields } icon
  }
  ${SITE_SECTION}
`;

export const SHARE_LINK = /* GraphQL */ `
  fragment ShareLinkFields on ShareLink { object id createdAt name active urls { published } }
`;

export const MEMBER = /* GraphQL */ `
  fragment MemberFields on Member {
    object id role user { ...UserFields } disabled joinedAt lastSeenAt sso spaces teams
  }
  ${USER}
`;

export const TEAM = /* GraphQL */ `
  fragment TeamFields on Team { object id title members spaces createdAt permissions { admin view } }
`;

export const INVITE_LINK = /* GraphQL */ `
  fragment InviteLinkFields on InviteLink {
    ... on OrganizationInviteLink { object id role redundant }
    ... on SpaceInviteLink { object id level redundant space { ...SpaceFields } }
    ... on CollectionInviteLink { object id level redundant collection { ...CollectionFields } }
  }
  ${SPACE}
  ${COLLECTION}
`;

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

export const CHANGE_REQUEST = /* GraphQL */ `
  fragment ChangeRequestFields on ChangeRequest {
    object id number status subject createdBy { ...UserFields } createdAt updatedAt
    revision revisionInitial revisionMergedAncestor revisionMerged comments outdated
    urls { app location }
  }
  ${USER}
`;

/** A page with its children to the deepest level pages may nest (MAX_PAGE_DEPTH, 8; GraphQL has no recursion). */
const pageFields = (depth: number): string =>
  `id kind type title emoji icon createdAt updatedAt markdown document urls { app } slug path description documentId
   git { oid path } layout { width cover coverSize title description tableOfContents outline pagination metadata }
   cover { ref { kind file url } yPos } hidden noIndex noRobotsIndex` + (depth > 0 ? ` pages { ${pageFields(depth - 1)} }` : ' pages { id }');

export const PAGE = /* GraphQL */ `
  fragment PageFields on Page { ${pageFields(7)} }
`;

export const FILE = /* GraphQL */ `
  fragment FileFields on RevisionFile { id name contentType downloadURL size dimensions { width height } git { oid path } }
`;

export const REVISION = /* GraphQL */ `
  fragment RevisionFields on Revision {
    object id parents type pages { ...PageFields } files { ...FileFields } reusableContents createdAt
    urls { app published public }
    mergedFrom { ...ChangeRequestFields }
  }
  ${PAGE}
  ${FILE}
  ${CHANGE_REQUEST}
`;

export const TRANSLATION_SETTINGS = /* GraphQL */ `
  fragment TranslationSettingsFields on TranslationSettings {
    object id title languages createdAt updatedAt permissions { edit } urls { location }
  }
`;

export const OPENAPI_SPEC = /* GraphQL */ `
  fragment OpenAPISpecFields on OpenAPISpec {
    object id createdAt updatedAt slug sourceURL processingState lastVersion lastProcessedAt lastProcessErrorCode
    permissions { view edit } urls { location app }
  }
`;

export const INTEGRATION = /* GraphQL */ `
  fragment IntegrationFields on Integration {
    object name version title description summary previewImages target verified visibility scopes categories
    blocks { id title description icon urlUnfurl markdown { codeblock body } }
    contentSources { id title description icon configuration { componentId } }
    configurations externalLinks { url label }
    owner { ...OrganizationFields }
    urls { location icon app assets publicEndpoint }
    permissions { admin install }
    contentSecurityPolicy
  }
  ${ORGANIZATION}
`;

export const INTEGRATION_INSTALLATION = /* GraphQL */ `
  fragment IntegrationInstallationFields on IntegrationInstallation {
    id status space_selection site_selection spaces configuration createdAt updatedAt
    urls { location app publicEndpoint } externalIds target { organization }
  }
`;

const REACTIONS = /* GraphQL */ `reactions { emoji count users { user { ...UserFields } reactedAt } }`;

/** Comment and reply fields; the documents using them declare `$format`. */
export const COMMENT = /* GraphQL */ `
  fragment CommentFields on Comment {
    object id postedBy { ...UserFields } postedAt editedAt ${REACTIONS} replies
    body(format: $format) { markdown document }
    target {
      node { id preview } changeRequest review space revision
      page { id title emoji icon createdAt updatedAt path outdated }
    }
    urls { location }
    permissions { view edit reply react delete }
    status resolvedAt resolvedBy { ...UserFields }
  }
  ${USER}
`;

export const COMMENT_REPLY = /* GraphQL */ `
  fragment CommentReplyFields on CommentReply {
    object id postedBy { ...UserFields } postedAt editedAt ${REACTIONS}
    body(format: $format) { markdown document }
    urls { location }
    permissions { view edit reply react delete }
  }
  ${USER}
`;

/** A ContentLocation (page, file, space or URL) and classified link lists; needs ORGANIZATION, SPACE, CHANGE_REQUEST, PAGE and FILE. */
export const CONTENT_LOCATION = /* GraphQL */ `
  fragment ContentLocationFields on ContentLocation {
    kind url organization { ...OrganizationFields } space { ...SpaceFields }
    versionContext { type changeRequest { ...ChangeRequestFields } }
    page { ...PageFields } file { ...FileFields }
  }
`;

export const LINKS = /* GraphQL */ `
  fragment LinkListFields on ContentReferenceUsageList {
    items { status relation targetReference { ...ContentLocationFields } locationReferences { ...ContentLocationFields } }
    count next { page } stats { total broken { total changeRequest } }
  }
  ${CONTENT_LOCATION}
`;
