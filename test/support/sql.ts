import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlObservers } from '../../src/db/sql-observers.js';
import { RATE_LIMIT_TABLE } from '../../src/rate-limits/store.js';

/** Runs `work` and returns the SQL statements the server sent meanwhile, in order, with their parameters where the read path gives them. */
export async function statementsWithValuesDuring(work: () => Promise<unknown>): Promise<{ text: string; values: readonly unknown[] }[]> {
  const statements: { text: string; values: readonly unknown[] }[] = [];
  const observe = (text: string, values?: readonly unknown[]) => {
    statements.push({ text, values: values ?? [] });
  };
  sqlObservers.add(observe);
  try {
    await work();
  } finally {
    sqlObservers.delete(observe);
  }
  return statements;
}

/** Runs `work` and returns the SQL statements the server sent meanwhile, in order. */
export async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  return (await statementsWithValuesDuring(work)).map((statement) => statement.text);
}

/** Runs `work` and returns how many SQL statements the server sent meanwhile. */
export async function countStatements(work: () => Promise<unknown>): Promise<number> {
  return (await statementsDuring(work)).length;
}

/**
 * A digest of every row of every table of the server's schema, table by table: equal digests before and
 * after some requests show that they changed nothing. The rate limiters' counters are left out: every
 * request, refused ones too, counts there; so are the audit log's refused mutations (outcome other than
 * succeeded), which record a refusal rather than a change, and when a token was last used, which any
 * request with it may note (at most once a minute).
 */
export async function databaseDigest(em: EntityManager): Promise<Record<string, string>> {
  const connection = em.getConnection();
  const tables = await connection.execute<{ name: string }[]>(
    `select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> '${RATE_LIMIT_TABLE}' order by 1`,
  );
  const digest: Record<string, string> = {};
  for (const { name } of tables) {
    const changesOnly = name === 'domain_event' ? ` where t."outcome" = 'succeeded'` : '';
    const row = name === 'api_token' ? `(to_jsonb(t) - 'last_used_at')::text` : 't::text';
    const [counted] = await connection.execute<{ rows: number; md5: string }[]>(
      `select count(*)::int as rows, md5(coalesce(string_agg(${row}, ',' order by ${row}), '')) as md5 from "${name.replaceAll('"', '""')}" t${changesOnly}`,
    );
    digest[name] = `${counted.rows} ${counted.md5}`;
  }
  return digest;
}
