import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate, openOrm } from '../../src/db/orm.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database that each test file copies (unset when TEST_DATABASE_URL is used). */
    templateDir: string;
  }
}

/**
 * Prepares the database once per run: against TEST_DATABASE_URL, a fresh migrated schema shared by
 * all files (tests isolate themselves through fresh organizations); otherwise a migrated PGlite
 * template directory, which is much faster to copy than to create.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const orm = await openOrm({ url });
    await orm.em.getConnection().execute('drop schema if exists public cascade; create schema public;');
    await migrate(orm);
    await orm.close();
    project.provide('templateDir', '');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'dp-test-template-'));
  const orm = await openOrm({ dataDir: dir });
  await migrate(orm);
  await orm.close();
  project.provide('templateDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
