/** Selections of the contract's fields of this area's resources (and `tags`, which the current client requires of pages), shared by the routes. */

/** A page with its children to the deepest level pages may nest (MAX_PAGE_DEPTH, 8; GraphQL has no recursion). */
const pageFields = (depth: number): string =>
  `id kind type title emoji icon createdAt updatedAt markdown document urls { app } slug path description documentId
   git { oid path } layout { width cover coverSize coverMask title description tableOfContents outline pagination metadata tags actions anchors }
   cover { ref { kind file url } yPos } hidden noIndex noRobotsIndex tags` + (depth > 0 ? ` pages { ${pageFields(depth - 1)} }` : ' pages { id }');

export const PAGE = /* GraphQL */ `
  fragment PageFields on Page { ${pageFields(7)} }
`;

export const FILE = /* GraphQL */ `
  fragment FileFields on RevisionFile { id name contentType downloadURL size dimensions { width height } git { oid path } }
`;

/** A revision with its pages and files; needs CHANGE_REQUEST (the change request it was merged from), which its area declares. */
export const REVISION = /* GraphQL */ `
  fragment RevisionFields on Revision {
    object id parents type pages { ...PageFields } files { ...FileFields } reusableContents tags createdAt
    urls { app published public }
    mergedFrom { ...ChangeRequestFields }
  }
  ${PAGE}
  ${FILE}
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

/** A page's navigation meta-links (previous, next, parent), each a page reference. */
export const META_LINKS = /* GraphQL */ `
  fragment PageMetaLinksFields on PageMetaLinks { previous { kind page } next { kind page } parent { kind page } }
`;
