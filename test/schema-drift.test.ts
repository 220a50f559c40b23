import { expect, it } from 'vitest';
import { useTestServer } from './support/server.js';

/*
 * The migrations build exactly the schema the entities describe: what MikroORM would generate from
 * the entities against a migrated database is nothing. A new column or index declared on an entity
 * without its migration (or the reverse) fails here, not on an operator's `npm run migration:create`.
 */

const server = useTestServer();

// On a PostgreSQL server the suite works in a schema per worker, where MikroORM's comparison reports
// every foreign key as different; the embedded run checks the same migrations in the default schema.
it.skipIf(!!process.env.TEST_DATABASE_URL)('the migrated database matches the entities', async () => {
  const diff = await server.deps.orm.schema.getUpdateSchemaMigrationSQL({ wrap: false, safe: false });
  expect(diff.up.trim()).toBe('');
});
