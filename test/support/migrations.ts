import type { Migration } from '@mikro-orm/migrations';
import { migrationsList } from '../../src/db/migrations/index.js';
import type { Orm } from '../../src/db/orm.js';

/** Runs one committed migration's `up` or `down` in a transaction, as the migrator does. */
export async function runMigration(orm: Orm, name: string, method: 'up' | 'down'): Promise<void> {
  const connection = orm.em.getConnection();
  await connection.transactional(async (trx) => {
    const { class: Class } = migrationsList.find((m) => m.name === name)!;
    const migration = new (Class as unknown as new (...args: unknown[]) => Migration)(orm.em.getDriver(), orm.config);
    migration.setTransactionContext(trx);
    await migration[method]();
    for (const query of migration.getQueries()) await connection.execute(query, [], 'all', trx);
  });
}
