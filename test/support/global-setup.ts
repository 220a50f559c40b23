import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate, openOrm } from '../../src/db/orm.js';
import { entities } from '../../src/entities.js';
import { dropDedicatedDatabase, onServer, TEST_SCHEMA_PREFIX } from './database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database that each test file copies (unset when TEST_DATABASE_URL is used). */
    templateDir: string;
  }
}

/**
 * Prepares the run. Embedded: one migrated PGlite template directory, much faster to copy than to
 * create. On TEST_DATABASE_URL: removes schemas (and dedicated databases and roles) that interrupted
 * runs left behind hours ago (each test file makes and drops its own).
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    await onServer(url, async (client) => {
      const staleBefore = Date.now() / 1000 - 3 * 60 * 60;
      // Only leftovers of runs interrupted hours ago: another run may be using them right now.
      const stale = (name: string) => !(Number(name.slice(TEST_SCHEMA_PREFIX.length).split('_')[0]) > staleBefore);
      const { rows } = await client.query<{ nspname: string }>(`select nspname from pg_namespace where nspname like $1`, [`${TEST_SCHEMA_PREFIX}%`]);
      for (const { nspname } of rows) if (stale(nspname)) await client.query(`drop schema if exists "${nspname}" cascade`);
      const dedicated = await client.query<{ rolname: string }>(`select rolname from pg_roles where rolname like $1`, [`${TEST_SCHEMA_PREFIX}%`]);
      for (const { rolname } of dedicated.rows) if (stale(rolname)) await dropDedicatedDatabase(client, rolname);
    });
    project.provide('templateDir', '');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'dp-test-template-'));
  const orm = await openOrm({ dataDir: dir }, { entities });
  await migrate(orm);
  await orm.close();
  project.provide('templateDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
