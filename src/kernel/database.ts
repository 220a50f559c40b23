import type { MikroORM } from '@mikro-orm/postgresql';

// Types only: the configuration and the domain name them without loading the ORM's setup, whose entity
// list comes from the areas (src/areas.ts).

/**
 * A PostgreSQL server (optionally one schema of it, optionally with streaming replicas that reads may
 * use: docs/scaling.md) or an embedded data directory.
 */
export type Database = { url: string; schema?: string; replicas?: ReplicaOptions } | { dataDir: string };

/**
 * Streaming replicas of a server: their URLs, the lag past which one leaves the rotation, and how long
 * a read there may go unanswered before the primary answers it instead.
 */
export type ReplicaOptions = { urls: string[]; maxLagMs: number; queryTimeoutMs: number };

export type Orm = MikroORM;
