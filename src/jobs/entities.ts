import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Work that must outlive a request. Claimed with SKIP LOCKED so any number of instances can run workers. */
export const Job = defineEntity({
  name: 'Job',
  indexes: [{ properties: ['runAt'] }],
  properties: {
    id: p.string().primary(),
    kind: p.string(),
    payload: p.json<Record<string, unknown>>(),
    runAt: p.datetime(),
    attempts: p.integer(),
    lockedUntil: p.datetime().nullable(),
    lastError: p.text().nullable(),
    createdAt: p.datetime(),
  },
});
export type JobRow = InferEntity<typeof Job>;
