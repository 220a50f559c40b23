import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { Organization } from '../organizations/index.js';
import { Space } from '../spaces/index.js';

/*
 * The organization search index: one row per section of a page of a space's main revision (the text
 * before the first heading, then each heading with the text under it). A change of a space's main
 * revision marks its `SearchIndexedSpace` stale (with the change) and schedules a job that rebuilds
 * its rows; a search rebuilds first the stale spaces the job has not reached yet (see indexing.ts).
 */

/** Which main revision of a space the index holds, and whether the space's main revision moved since. */
export const SearchIndexedSpace = defineEntity({
  name: 'SearchIndexedSpace',
  properties: {
    space: () => p.manyToOne(Space).mapToPk().primary().deleteRule('cascade'),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade').index(),
    revision: p.string(),
    /** Set with every change of the main revision, cleared by the rebuild (a partial index holds the stale ones). */
    stale: p.boolean().default(false),
  },
  // What a search looks up first: its organization's stale spaces, usually none.
  indexes: [
    {
      name: 'search_indexed_space_stale_index',
      expression: 'create index "search_indexed_space_stale_index" on "search_indexed_space" ("organization_id") where "stale"',
    },
  ],
});
export type SearchIndexedSpaceRow = Plain<InferEntity<typeof SearchIndexedSpace>>;

/** One searchable section; `document` (title weighted above body) is filled by PostgreSQL. */
export const SearchSection = defineEntity({
  name: 'SearchSection',
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade').index(),
    page: p.string(),
    /** Position of the section in its page (0: the text before the first heading). */
    position: p.integer(),
    /** The heading's anchor; empty for the text before the first heading. */
    anchor: p.string(),
    pageTitle: p.string(),
    pagePath: p.string(),
    /** The page's description ('' when it has none), for a page result. */
    pageDescription: p.text(),
    /** The titles of the page's ancestors, from the top level down to its parent. */
    pageAncestors: p.json<string[]>(),
    title: p.string(),
    body: p.text(),
    document: p
      .string()
      .columnType('tsvector')
      .generated(`(setweight(to_tsvector('english', coalesce("title", '')), 'A') || setweight(to_tsvector('english', coalesce("body", '')), 'B')) stored`)
      .lazy()
      .nullable(),
    /** The title alone: sections naming the words in their heading outrank all others, so a search takes them first. */
    heading: p.string().columnType('tsvector').generated(`(to_tsvector('english', coalesce("title", ''))) stored`).lazy().nullable(),
  },
  indexes: [
    { properties: ['document'], type: 'fulltext' },
    { properties: ['heading'], type: 'fulltext' },
  ],
});
export type SearchSectionRow = Plain<InferEntity<typeof SearchSection>>;
