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
 * (alias `sp`; null: every space, for the organization's admins) and, when `spaces` is given, of those
 * spaces only (a space's or a site's search).
 */
export type Search = { organizationId: string; query: string; readable: Sql | null; spaces?: readonly string[] };

/**
 * The candidates: each branch is a GIN bitmap scan that stops after SEARCH_CANDIDATES sections of
 * spaces the viewer may read (the policy's filter, in SQL).
 */
const candidates = ({ organizationId, query, readable, spaces }: Search) => {
  const ofReadableSpaces = readable ? sql`and exists (select 1 from "space" sp where sp."id" = s."space_id" and ${readable})` : empty;
  const ofSpaces = spaces ? sql`and s."space_id" = any(${spaces}::text[])` : empty;
  return sql`q as (select websearch_to_tsquery('english', ${query}) as "query"),
  candidates as (
    (select s."id" from "search_section" s, q
     where s."organization_id" = ${organizationId} and s."heading" @@ q."query" ${ofSpaces} ${ofReadableSpaces} limit ${SEARCH_CANDIDATES})
    union
    (select s."id" from "search_section" s, q
     where s."organization_id" = ${organizationId} and s."document" @@ q."query" ${ofSpaces} ${ofReadableSpaces} limit ${SEARCH_CANDIDATES})
  )`;
};

/**
 * The candidates ranked: the best MAX_SEARCH_SECTIONS sections of live spaces; their pages, each scored
 * as its best section and numbered (`position`, from 1) in the order score, space id (both descending),
 * best section's id, which is the order every answer lists pages in.
 */
const rankedPages = (search: Search) => sql`with ${candidates(search)},
  ranked as (
    select s."id", s."space_id" as "space", s."page", s."anchor", s."title", s."body", ts_rank(s."document", q."query") as "rank",
      s."page_title", s."page_path", s."page_description", s."page_ancestors"
    from candidates c join "search_section" s on s."id" = c."id" join "space" sp on sp."id" = s."space_id", q
    where sp."organization_id" = ${search.organizationId} and sp."deleted_at" is null
    order by "rank" desc, s."id" limit ${MAX_SEARCH_SECTIONS}
  ),
  pages as (
    select r."space", r."page", max(r."rank") as "score", (array_agg(r."id" order by r."rank" desc, r."id"))[1] as "best",
      row_number() over (order by max(r."rank") desc, r."space" collate "C" desc, (array_agg(r."id" order by r."rank" desc, r."id"))[1]) as "position"
    from ranked r group by r."space", r."page"
  )`;

/**
 * The pages of `shown` (a CTE of `space` ids and `page` ids), with their fields (which every section of
 * a page repeats: its best one's are taken, already read with it), score and position, and their
 * sections best first.
 */
const pagesAndSections = (shown: Sql) => sql`
    coalesce((select json_agg(json_build_array(p."space", p."page", p."score", p."position", p."best", b."page_title", b."page_path", b."page_description", b."page_ancestors")
      order by p."position") from pages p join ${shown} w on w."space" = p."space" and w."page" = p."page"
      join ranked b on b."id" = p."best"), '[]') as "pages",
    coalesce((select json_agg(json_build_array(r."id", r."space", r."page", r."anchor", r."title", r."body", r."rank") order by r."rank" desc, r."id")
      from ranked r join ${shown} w on w."space" = r."space" and w."page" = r."page"), '[]') as "sections"`;

/**
 * A page of spaces (an organization's or a site's search): the spaces of the ranked pages, each scored
 * as its best page, after the cursor (null: the first page) in the order score then id, both
 * descending, `limit` of them; how many spaces the answer holds; the pages and sections of the page's
 * spaces.
 */
const spacePageStatement = (search: Search, after: { rank: number; space: string } | null, limit: number) => sql`${rankedPages(search)},
  spaces as (select p."space", max(p."score") as "rank" from pages p group by p."space"),
  page as (
    select p."space", p."rank" from spaces p
    where ${after?.rank ?? null}::real is null or (p."rank", p."space" collate "C") < (${after?.rank ?? null}::real, ${after?.space ?? null}::text collate "C")
    order by p."rank" desc, p."space" collate "C" desc limit ${limit}
  ),
  shown as (select p."space", p."page" from pages p where p."space" in (select g."space" from page g))
  select (select count(*) from spaces)::int as "count",
    coalesce((select json_agg(json_build_array(p."space", p."rank") order by p."rank" desc, p."space" collate "C" desc) from page p), '[]') as "spaces",
    ${pagesAndSections(sql`shown`)}`;

/** A page of pages (a space's search): the ranked pages after the cursor (score, best section id), `limit` of them, how many there are, and their sections. */
const pagePageStatement = (search: Search, after: { score: number; best: string } | null, limit: number) => sql`${rankedPages(search)},
  shown as (
    select p."space", p."page" from pages p
    where ${after?.score ?? null}::real is null or p."score" < ${after?.score ?? null}::real or (p."score" = ${after?.score ?? null}::real and p."best" > ${after?.best ?? null}::text)
    order by p."position" limit ${limit}
  )
  select (select count(*) from pages)::int as "count", ${pagesAndSections(sql`shown`)}`;

export type SectionHit = { id: string; space: string; page: string; anchor: string; title: string; body: string; rank: number };
/** A ranked page: `score` is its best section's rank, `position` its place among all the answer's pages (from 1). */
export type RankedPageRow = {
  space: string;
  page: string;
  score: number;
  position: number;
  /** Its best section's id: with the score, the place of the page in the order. */
  best: string;
  title: string;
  path: string;
  description: string;
  ancestors: string[];
};

export type RankedSpaces = { count: number; spaces: { space: string; rank: number }[]; pages: RankedPageRow[]; sections: SectionHit[] };
export type RankedPages = { count: number; pages: RankedPageRow[]; sections: SectionHit[] };

type Answer = { count: number; spaces?: [string, number][]; pages: unknown[][]; sections: unknown[][] };

const pagesOf = (row: Answer) =>
  row.pages.map(
    ([space, page, score, position, best, title, path, description, ancestors]) =>
      ({ space, page, score, position: Number(position), best, title, path, description, ancestors }) as RankedPageRow,
  );
const sectionsOf = (row: Answer) =>
  row.sections.map(([id, space, page, anchor, title, body, rank]) => ({ id, space, page, anchor, title, body, rank }) as SectionHit);

/** One page of a search's spaces: up to `limit` + 1 spaces after `after`, with their pages and sections. */
export async function rankedPage(em: EntityManager, search: Search, after: { rank: number; space: string } | null, limit: number): Promise<RankedSpaces> {
  const [row] = await readRows<Answer>(em, spacePageStatement(search, after, limit + 1));
  return { count: row.count, spaces: row.spaces!.map(([space, rank]) => ({ space, rank })), pages: pagesOf(row), sections: sectionsOf(row) };
}

/** One page of a search's pages: up to `limit` + 1 pages after `after`, with their sections. */
export async function rankedPagesPage(em: EntityManager, search: Search, after: { score: number; best: string } | null, limit: number): Promise<RankedPages> {
  const [row] = await readRows<Answer>(em, pagePageStatement(search, after, limit + 1));
  return { count: row.count, pages: pagesOf(row), sections: sectionsOf(row) };
}

/** The statement of a search's page, for tests that look at its plan. */
export const rankingStatementOf = spacePageStatement;
