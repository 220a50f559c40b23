import { types, type PGlite, type Transaction } from '@electric-sql/pglite';
import type { PgClient, PgClientQuery, PgClientResult, WithPgClient } from '@dataplan/pg';

/**
 * A grafast PgAdaptor over an in-process PGlite, so that PostGraphile reads the very embedded database
 * the server holds (PGlite is one database that one process opens; a second connection cannot reach it).
 * The contract is @dataplan/pg's (`adaptors/pg.js`): `createWithPgClient` gives a `withPgClient`
 * whose client runs `query({text, values, arrayMode})` and `withTransaction`. Session settings
 * (`pgSettings`), when a request has any, are set for one transaction with `set_config(…, true)`.
 */
export type PgliteAdaptorSettings = { pglite: PGlite };

declare global {
  namespace GraphileConfig {
    interface PgAdaptors {
      'bench-tree/pglite': {
        adaptorSettings: PgliteAdaptorSettings;
        makePgServiceOptions: { pglite: PGlite; schemas?: string[] };
        client: PgClient;
      };
    }
  }
}

type Queryable = Pick<PGlite | Transaction, 'query'>;

/**
 * Values come back as PostgreSQL's text: @dataplan/pg casts what it selects and decodes text itself
 * (node-postgres hands it strings for those casts too), so PGlite must not parse them first.
 */
const asText = (value: string) => value;
const textParsersOf = (pglite: PGlite) => Object.fromEntries(Object.keys({ ...types.parsers, ...pglite.parsers }).map((oid) => [oid, asText]));

type Parsers = ReturnType<typeof textParsersOf>;

function clientOver(db: Queryable, pglite: PGlite, parsers: Parsers, inTransaction: boolean): PgClient {
  return {
    async query<TData>({ text, values, arrayMode }: PgClientQuery): Promise<PgClientResult<TData>> {
      const result = await db.query<TData>(text, values as unknown[] | undefined, { rowMode: arrayMode ? 'array' : 'object', parsers });
      return { rows: result.rows, rowCount: result.affectedRows ?? null };
    },
    async withTransaction<T>(callback: (client: PgClient) => Promise<T>): Promise<T> {
      // The outer transaction takes PGlite's exclusive lock (as the ORM's dialect does); inner ones are savepoints.
      if (!inTransaction) return pglite.transaction((tx) => callback(clientOver(tx, pglite, parsers, true)));
      await db.query('savepoint nested');
      try {
        const result = await callback(this);
        await db.query('release savepoint nested');
        return result;
      } catch (error) {
        await db.query('rollback to savepoint nested');
        throw error;
      }
    },
  };
}

function createWithPgClient({ pglite }: PgliteAdaptorSettings): WithPgClient<PgClient> {
  const parsers = textParsersOf(pglite);
  const client = clientOver(pglite, pglite, parsers, false);
  return async (pgSettings, callback) => {
    const settings = Object.entries(pgSettings ?? {}).filter(([, value]) => value != null);
    if (!settings.length) return callback(client);
    return pglite.transaction(async (tx) => {
      await tx.query('select set_config(el->>0, el->>1, true) from json_array_elements($1::json) el', [JSON.stringify(settings)]);
      return callback(clientOver(tx, pglite, parsers, true));
    });
  };
}

function makePgService({ pglite, schemas = ['public'] }: { pglite: PGlite; schemas?: string[] }): GraphileConfig.PgServiceConfiguration<'bench-tree/pglite'> {
  return {
    name: 'main',
    schemas,
    adaptor: pgliteAdaptor,
    adaptorSettings: { pglite },
    withPgClientKey: 'withPgClient',
    pgSettingsKey: 'pgSettings',
    pgSubscriber: null,
  };
}

export const pgliteAdaptor = { createWithPgClient, makePgService };
