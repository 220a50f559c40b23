import type { MikroORM } from '@mikro-orm/postgresql';

// Types only: the configuration and the domain name them without loading the ORM's setup, whose entity
// list comes from the areas (src/areas.ts).

/** A PostgreSQL server (optionally one schema of it) or an embedded data directory. */
export type Database = { url: string; schema?: string } | { dataDir: string };

export type Orm = MikroORM;
