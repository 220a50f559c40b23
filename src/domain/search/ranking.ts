import type { EntityManager } from '@mikro-orm/postgresql';
import { plainQuery } from '../../db/plain-rows.js';

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
 * $1 organization, $2 query text, $3 SEARCH_CANDIDATES, $4 the space ids the viewer may read among
 * them (null: every space). Each branch is a GIN bitmap scan that stops after $3 sections.
 */
const CANDIDATES = `q as (select websearch_to_tsquery('english', $2) as "query"),
  candidates as (
    (select s."id" from "search_section" s, q
     where s."organization_id" = $1 and s."heading" @@ q."query" and ($4::text[] is null or s."space_id" = any($4)) limit $3)
    union
    (select s."id" from "search_section" s, q
     where s."organization_id" = $1 and s."document" @@ q."query" and ($4::text[] is null or s."space_id" = any($4)) limit $3)
  )`;

/** The spaces of the candidates (for judging the viewer's access to each). */
const CANDIDATE_SPACES = `with ${CANDIDATES}
  select coalesce(json_agg(distinct s."space_id"), '[]') as "spaces"
  from candidates c join "search_section" s on s."id" = c."id"`;

/**
 * The answer: the candidates ranked, the best $5 sections of live spaces, grouped by space (a space
 * ranks as its best section); the page of spaces after the cursor ($6 rank, $7 space id; null: the
 * first page) in the order rank then id, both descending, $8 of them; how many spaces the answer
 * holds; and the sections of the page's spaces, best first.
 */
const RANKED_PAGE = `with ${CANDIDATES},
  ranked as (
    select s."id", s."space_id" as "space", s."page", s."anchor", s."page_title" as "pageTitle", s."page_path" as "pagePath",
      s."title", s."body", ts_rank(s."document", q."query") as "rank"
    from candidates c join "search_section" s on s."id" = c."id" join "space" sp on sp."id" = s."space_id", q
    where sp."organization_id" = $1 and sp."deleted_at" is null
    order by "rank" desc, s."id" limit $5
  ),
  spaces as (select r."space", max(r."rank") as "rank" from ranked r group by r."space"),
  page as (
    select p."space", p."rank" from spaces p
    where $6::real is null or (p."rank", p."space" collate "C") < ($6::real, $7::text collate "C")
    order by p."rank" desc, p."space" collate "C" desc limit $8
  )
  select (select count(*) from spaces)::int as "count",
    coalesce((select json_agg(json_build_array(p."space", p."rank") order by p."rank" desc, p."space" collate "C" desc) from page p), '[]') as "spaces",
    coalesce((select json_agg(json_build_array(r."id", r."space", r."page", r."anchor", r."pageTitle", r."pagePath", r."title", r."body", r."rank") order by r."rank" desc, r."id")
      from ranked r where r."space" in (select p."space" from page p)), '[]') as "sections"`;

export type SectionHit = { id: string; space: string; page: string; anchor: string; pageTitle: string; pagePath: string; title: string; body: string; rank: number };

/** The spaces among the candidates of a search, whatever the viewer may read. */
export async function candidateSpaces(em: EntityManager, organizationId: string, query: string): Promise<string[]> {
  const [row] = await plainQuery<{ spaces: string[] }>(em, CANDIDATE_SPACES, [organizationId, query, SEARCH_CANDIDATES, null]);
  return row!.spaces;
}

export type RankedPage = { count: number; spaces: { space: string; rank: number }[]; sections: SectionHit[] };

/** One page of a search's answer: up to `limit` + 1 spaces after `after`, with their sections. */
export async function rankedPage(
  em: EntityManager,
  search: { organizationId: string; query: string; readable: string[] | null },
  after: { rank: number; space: string } | null,
  limit: number,
): Promise<RankedPage> {
  const [row] = await plainQuery<{ count: number; spaces: [string, number][]; sections: unknown[][] }>(em, RANKED_PAGE, [
    search.organizationId,
    search.query,
    SEARCH_CANDIDATES,
    search.readable,
    MAX_SEARCH_SECTIONS,
    after?.rank ?? null,
    after?.space ?? null,
    limit + 1,
  ]);
  return {
    count: row!.count,
    spaces: row!.spaces.map(([space, rank]) => ({ space, rank })),
    sections: row!.sections.map(([id, space, page, anchor, pageTitle, pagePath, title, body, rank]) => ({ id, space, page, anchor, pageTitle, pagePath, title, body, rank }) as SectionHit),
  };
}

/** The statements' texts, for tests that look at their plans. */
export const rankingStatements = { CANDIDATES, RANKED_PAGE };
