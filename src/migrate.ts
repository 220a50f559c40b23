// First: on a Node.js that package.json's engines does not allow, one line and exit 1 before any other module runs.
import './supported-node.mjs';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TSMigrationGenerator } from '@mikro-orm/migrations';
import { ConfigError, databaseOf, loadConfig, type Config } from './kernel/config.js';
import { migrate, openOrm, type Orm } from './db/orm.js';
import { entities } from './entities.js';

/**
 * `npm run migrate` applies pending migrations. `npm run migration:create` first migrates, then writes
 * a new migration from the difference between the entities and the database, and registers it in
 * db/migrations/index.ts (MikroORM's own file discovery is not used).
 */
const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'db', 'migrations');

async function createMigration(orm: Orm): Promise<string | undefined> {
  const diff = await orm.schema.getUpdateSchemaMigrationSQL({ wrap: false, safe: false });
  const statements = (sql: string) =>
    sql
      .split(/;\n/)
      .map((s) => s.trim().replace(/;$/, ''))
      .filter(Boolean);
  const up = statements(diff.up);
  if (up.length === 0) return undefined;
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const className = `Migration${stamp}`;
  const generator = new TSMigrationGenerator(orm.em.getDriver(), orm.config.getNamingStrategy(), orm.config.get('migrations'));
  writeFileSync(join(migrationsDir, `${className}.ts`), generator.generateMigrationFile(className, { up, down: statements(diff.down) }));
  const indexPath = join(migrationsDir, 'index.ts');
  const index = readFileSync(indexPath, 'utf8')
    .replace(/(import type [^\n]+\n)/, `$1import { ${className} } from './${className}.js';\n`)
    .replace(/\n\];/, `\n  { name: '${className}', class: ${className} },\n];`);
  writeFileSync(indexPath, index);
  return className;
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  // A line per bad variable, as the server's start prints them, not a stack.
  if (!(error instanceof ConfigError)) throw error;
  for (const line of error.lines) process.stderr.write(`error: ${line}\n`);
  process.exit(1);
}
const orm = await openOrm(databaseOf(config), { entities, holder: 'migrate' });
try {
  const applied = await migrate(orm);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
  if (process.argv.includes('--create')) {
    const created = await createMigration(orm);
    console.log(created ? `created ${created}` : 'entities match the database: no migration created');
  }
} finally {
  await orm.close();
}
