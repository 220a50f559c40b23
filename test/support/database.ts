import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { Database } from '../../src/db/orm.js';
import { newId } from '../../src/kernel/ids.js';

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

/** A database of its own on TEST_DATABASE_URL's server, with a login role of the same name that owns it. */
export type DedicatedDatabase = { name: string; url: string; dispose(): Promise<void> };

/**
 * A database and a role of their own on TEST_DATABASE_URL's server, for tests that close, limit,
 * rename or revoke a database (the run's database and the server's settings are never touched). The
 * role owns the database and is no superuser, so that connection limits and privileges apply to it.
 * Named like the test schemas, so that global-setup removes what an interrupted run left behind.
 */
export async function dedicatedDatabase(): Promise<DedicatedDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `${TEST_SCHEMA_PREFIX}${Math.floor(Date.now() / 1000)}_${newId().toLowerCase()}`;
  await onServer(adminUrl, async (client) => {
    await client.query(`create role "${name}" login`);
    await client.query(`create database "${name}" owner "${name}"`);
  });
  const url = new URL(adminUrl);
  url.username = name;
  url.password = '';
  url.pathname = `/${name}`;
  return {
    name,
    url: url.href,
    dispose: () => onServer(adminUrl, (client) => dropDedicatedDatabase(client, name)),
  };
}

/** The name a test gives a dedicated database while it is renamed away (see dropDedicatedDatabase). */
export const renamedAway = (name: string) => `${name}_away`;

/** Drops a dedicated database (ending its sessions), also where a test renamed it away, and its role. */
export async function dropDedicatedDatabase(client: pg.Client, name: string): Promise<void> {
  for (const database of [name, renamedAway(name)]) await client.query(`drop database if exists "${database}" with (force)`);
  await client.query(`drop role if exists "${name}"`);
}
