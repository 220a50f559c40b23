import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { Database } from '../../src/db/orm.js';
import { newId } from '../../src/ids.js';

/**
 * The master key (SECRET_KEY) of test servers on PostgreSQL, which require one; an embedded test
 * server makes its own key file in its data directory, as a first start does. Not a secret.
 */
export const TEST_SECRET_KEY = 'dGVzdCBzZXJ2ZXJzIG9ubHk6IG5vdCBhIHNlY3JldCE=';

/** Prefix of the schemas that test files create on a PostgreSQL server. */
export const TEST_SCHEMA_PREFIX = 'dptest_';

export async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export type FreshDatabase = { database: Database; env: Record<string, string>; dispose(): Promise<void> };

/**
 * A database of the test file's own: a copy of the run's migrated embedded template, or a new schema
 * on TEST_DATABASE_URL (migrated when the server starts). Files never see each other's rows or jobs.
 */
export async function freshDatabase(): Promise<FreshDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    // The creation time in the name lets a later run tell leftovers of interrupted runs from live ones.
    const schema = `${TEST_SCHEMA_PREFIX}${Math.floor(Date.now() / 1000)}_${newId().toLowerCase()}`;
    await onServer(url, (client) => client.query(`create schema "${schema}"`));
    return {
      database: { url, schema },
      env: { DATABASE_URL: url, DATABASE_SCHEMA: schema, SECRET_KEY: TEST_SECRET_KEY },
      dispose: () => onServer(url, (client) => client.query(`drop schema if exists "${schema}" cascade`)).then(() => undefined),
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'dp-test-db-'));
  cpSync(inject('templateDir'), dataDir, { recursive: true });
  return {
    database: { dataDir },
    env: { DATA_DIR: dataDir },
    dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}
