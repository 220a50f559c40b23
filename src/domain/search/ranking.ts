import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { empty, type Sql } from 'sql-template-tag';
import { readRows } from '../../db/statements.js';

/*
 * Ranking within a bounded candidate set. `ts_rank` reads each section's whole tsvector, so ranking
 * every match of a common word costs as much as there are matches. The GIN indexes pick at most
 * SEARCH_CANDIDATES sections whose heading matches (the title vector) and as many that match at
 * all (the whole document), without ordering them (no index orders by rank); only those are ranked.
 * With the default weights a section naming a single-word query in its heading (weight A) always
 * outranks every section naming it in its body only (weight B, whose rank stays below the least a
 * heading match gets), so when the matches outnumber the bound the candidates are still the best
 * ones unless more than SEARCH_CANDIDATES headings match. When all the matches fit in the bound the
 * answer is exactly today's ranking of all of them.
 */

/** Sections taken per kind of match (heading, anywhere) before ranking. */
export const SEARCH_CANDIDATES = 2000;
/** At most this many best-ranked sections make up one search's answer (README). */
export const MAX_SEARCH_SECTIONS = 1000;

/**
 * What a search ranks: the organization's sections matching `query`, of the spaces `readable` selects
 * (alias `sp`; null: every space, for the organization's admins).
 */
type Search = { organizationId: string; query: string; readable: Sql | null };

/**
 * The candidates: each branch is a GIN bitmap scan that stops after SEARCH_CANDIDATES sections of
 * spaces the viewer may read (the policy's filter, in SQL).
 */
const candidates = ({ organizationId, query, readable }: Search) => {
  const ofReadableSpaces = readable ? sql`and exists (select 1 from "space" sp where sp."id" = s."space_id" and ${readable})` : empty;
  return sql`q as (select websearch_to_tsquery('english', ${query}) as "query"),
  candidates as (
    (select s."id" from "search_section" s, q
     where s."organization_id" = ${organizationId} and s."heading" @@ q."query" ${ofReadableSpaces} limit ${SEARCH_CANDIDATES})
    union
    (select s."id" from "search_section" s, q
     where s."organization_id" = ${organizationId} and s."document" @@ q."query" ${ofReadableSpaces} limit ${SEARCH_CANDIDATES})
  )`;
};

/**
 * The answer: the candidates ranked, the best MAX_SEARCH_SECTIONS sections of live spaces, grouped by
 * space (a space ranks as its best section); the page of spaces after the cursor (null: the first page)
 * in the order rank then id, both descending, `limit` of them; how many spaces the answer holds; and the
 * sections of the page's spaces, best first.
 */
const rankedPageStatement = (search: Search, after: { rank: number; space: string } | null, limit: number) => sql`with ${candidates(search)},
  ranked as (
    select s."id", s."space_id" as "space", s."page", s."anchor", s."page_title" as "pageTitle", s."page_path" as "pagePath",
      s."title", s."body", ts_rank(s."document", q."query") as "rank"
    from candidates c join "search_section" s on s."id" = c."id" join "space" sp on sp."id" = s."space_id", q
    where sp."organization_id" = ${search.organizationId} and sp."deleted_at" is null
    order by "rank" desc, s."id" limit ${MAX_SEARCH_SECTIONS}
  ),
  spaces as (select r."space", max(r."rank") as "rank" from ranked r group by r."space"),
  page as (
    select p."space", p."rank" from spaces p
    where ${after?.rank ?? null}::real is null or (p."rank", p."space" collate "C") < (${after?.rank ?? null}::real, ${after?.space ?? null}::text collate "C")
    order by p."rank" desc, p."space" collate "C" desc limit ${limit}
  )
  select (select count(*) from spaces)::int as "count",
    coalesce((select json_agg(json_build_array(p."space", p."rank") order by p."rank" desc, p."space" collate "C" desc) from page p), '[]') as "spaces",
    coalesce((select json_agg(json_build_array(r."id", r."space", r."page", r."anchor", r."pageTitle", r."pagePath", r."title", r."body", r."rank") order by r."rank" desc, r."id")
      from ranked r where r."space" in (select p."space" from page p)), '[]') as "sections"`;

export type SectionHit = {
  id: string;
  space: string;
  page: string;
  anchor: string;
  pageTitle: string;
  pagePath: string;
  title: string;
  body: string;
  rank: number;
};

export type RankedPage = { count: number; spaces: { space: string; rank: number }[]; sections: SectionHit[] };

/** One page of a search's answer: up to `limit` + 1 spaces after `after`, with their sections. */
export async function rankedPage(em: EntityManager, search: Search, after: { rank: number; space: string } | null, limit: number): Promise<RankedPage> {
  const statement = rankedPageStatement(search, after, limit + 1);
  const [row] = await readRows<{ count: number; spaces: [string, number][]; sections: unknown[][] }>(em, statement);
  return {
    count: row.count,
    spaces: row.spaces.map(([space, rank]) => ({ space, rank })),
    sections: row.sections.map(
      ([id, space, page, anchor, pageTitle, pagePath, title, body, rank]) =>
        ({ id, space, page, anchor, pageTitle, pagePath, title, body, rank }) as SectionHit,
    ),
  };
}

/** The statement of a search's page, for tests that look at its plan. */
export const rankingStatementOf = rankedPageStatement;
