/** The public face of the audit area: what other areas and the wiring may use of it. */
export { auditLogQuery } from './log.js';
export type { AuditLogFilter } from './log.js';
export { recordRefusal } from './refusals.js';
export type { Refusal } from './refusals.js';
export { AUDIT_RETENTION_INTERVAL_MS, AUDIT_RETENTION_JOB, scheduleAuditRetention } from './retention.js';
export { recordRefusedMutations } from './refused-mutations.js';
