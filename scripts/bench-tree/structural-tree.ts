/**
 * The structural site tree: site → sections → site spaces → space, plain columns only (no permissions,
 * counts or URLs), asked of this server's GraphQL schema and of PostGraphile's, which serves the same
 * tables. Aliases give PostGraphile's answer this server's field names, so that the two compare as they
 * come, with two differences normalised by `comparableStructure`.
 */

/** This server's query. Sections come in navigation order (a group's sections where the group stands). */
export const STRUCTURE_QUERY = `query SiteStructure($id: ID!) {
  site(id: $id) {
    id title hostname basename visibility published
    sections(limit: 1000) {
      items {
        id title description path condition icon
        siteSpaces { id path condition space { id title emoji visibility } }
      }
    }
  }
}`;

/**
 * PostGraphile's query (amber preset: a table's `id` column is `rowId`, `id` being the global node id;
 * relations are named after their foreign keys). Sections in position order, site spaces in position
 * order as on this server; ties broken by id on both.
 */
export const POSTGRAPHILE_STRUCTURE_QUERY = `query SiteStructure($id: String!) {
  site: siteByRowId(rowId: $id) {
    id: rowId title hostname basename visibility published
    sections: siteSectionsBySiteId(first: 1000, orderBy: [POSITION_ASC, ROW_ID_ASC]) {
      items: nodes {
        id: rowId title description path condition icon
        siteSpaces: siteSpacesBySectionId(orderBy: [POSITION_ASC, ROW_ID_ASC]) {
          nodes { id: rowId path condition space: spaceBySpaceId { id: rowId title emoji visibility } }
        }
      }
    }
  }
}`;

type Structure = { site: { sections: { items: Array<{ id: string; siteSpaces: Array<{ space: { emoji: string | null } }> }> } } };
type PostGraphileStructure = { site: { sections: { items: Array<{ id: string; siteSpaces: { nodes: Array<{ space: { emoji: string | null } }> } }> } } };

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Both answers in one shape: site spaces as a plain list, sections sorted by id (the two orders
 * legitimately differ: navigation order needs the group's position, which PostGraphile cannot order
 * by), and a missing emoji as '' (this schema's `Space.emoji` is non-null; the column is nullable).
 */
export function comparableStructure(answer: { data?: Structure | PostGraphileStructure }) {
  const site = structuredClone(answer.data?.site) as Structure['site'] | PostGraphileStructure['site'] | undefined;
  if (!site) return site;
  const sections = site.sections.items.map((section) => {
    const siteSpaces = Array.isArray(section.siteSpaces) ? section.siteSpaces : section.siteSpaces.nodes;
    for (const siteSpace of siteSpaces) siteSpace.space.emoji ??= '';
    return { ...section, siteSpaces };
  });
  return { ...site, sections: { items: sections.sort(byId) } };
}
