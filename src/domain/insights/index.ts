/** The public face of the insights area: what other areas and the wiring may use of it. */
export { MAX_LIMIT, piecesOf, planAggregate, runAggregatePlan, sliceRanges } from './aggregate.js';
export type { AggregateRequest, PlanOptions } from './aggregate.js';
export { BatchEncoder, EVENT_COLUMN_LIST } from './encode.js';
export { passesCheck, validateEvent, zodVerdict } from './events.js';
export { GroupCommit } from './group-commit.js';
export { IngestState } from './ingest-state.js';
export { forgetSiteInsights } from './purge.js';
export { RETENTION_INTERVAL_MS, RETENTION_JOB, scheduleInsightsRetention } from './retention.js';
export { rollUpSite } from './rollup.js';
export { rollupLock, watermarkOf, watermarkQuery } from './storage.js';
export { ROLLUP_TABLES } from './tables.js';
