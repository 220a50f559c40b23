/** The public face of the search area: what other areas and the wiring may use of it. */
export { SearchIndexedSpace, SearchSection } from './entities.js';
export { scheduleIndexing } from './indexing.js';
export { MAX_SEARCH_SECTIONS, SEARCH_CANDIDATES, rankingStatementOf } from './ranking.js';
