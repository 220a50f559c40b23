import type { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, type QueryResult } from 'kysely';

/** What runs a statement on the embedded database's one session (the Kysely client of its EntityManagers). */
type EmbeddedClient = { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> };

/** Per embedded database: the name each statement text is prepared under, or null when it cannot be. */
const preparedNames = new WeakMap<PGlite, Map<string, string | null>>();

/**
 * Texts prepared at most per database: the read path's statements follow the documents clients send;
 * texts beyond these run as they are.
 */
const MAX_PREPARED = 500;

/**
 * Runs a read of the read path (db/read-shapes.ts: a shape's answer, a page of shapes, a site's structure)
 * or the token's statement, which every request runs, on the embedded database with its plan kept: the text is prepared once in the database's one session
 * (SQL `PREPARE`), as a server's connections keep their named statements, and run with `EXECUTE`.
 * PGlite otherwise plans every statement anew, and an answer statement takes about as long to plan as
 * to run (docs/performance.md). Only for these statements: their keys come in a form whose plan does not
 * depend on the batch (`batchKeys`), while a generic plan would suit other reads badly (a text search
 * planned without its words).
 * `EXECUTE` takes no bound parameters, so values are written as literals of unknown type, which take the
 * prepared parameters' types; a statement with a value of another kind, or that cannot be prepared, runs
 * as it is.
 */
export async function readWithKeptPlan<T>(database: PGlite, client: EmbeddedClient, text: string, values: readonly unknown[]): Promise<T[]> {
  const literals = values.map(literalOf);
  const name = literals.every((literal) => literal !== undefined) ? await preparedName(database, client, text) : null;
  if (!name) return (await client.executeQuery(CompiledQuery.raw(text, [...values]))).rows as T[];
  const execute = `execute ${name}${literals.length ? `(${literals.join(', ')})` : ''}`;
  return (await client.executeQuery(CompiledQuery.raw(execute, []))).rows as T[];
}

async function preparedName(database: PGlite, client: EmbeddedClient, text: string): Promise<string | null> {
  let names = preparedNames.get(database);
  if (!names) preparedNames.set(database, (names = new Map<string, string | null>()));
  const known = names.get(text);
  if (known !== undefined || names.size >= MAX_PREPARED) return known ?? null;
  const name = `kept_plan_${names.size + 1}`;
  // Set before preparing: two requests of one document prepare it once.
  names.set(text, null);
  try {
    await client.executeQuery(CompiledQuery.raw(`prepare ${name} as ${text}`, []));
    names.set(text, name);
    return name;
  } catch {
    return null;
  }
}

/** A value as an SQL literal of unknown type (which takes the parameter's type), or undefined for a value of another kind. */
function literalOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value.includes('\u0000') ? undefined : `'${value.replaceAll("'", "''")}'`;
  if (typeof value === 'number') return Number.isFinite(value) ? `'${value}'` : undefined;
  if (typeof value === 'boolean') return `'${value}'`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : `'${value.toISOString()}'`;
  if (Array.isArray(value)) {
    const elements: string[] = [];
    for (const element of value) {
      if (element === null) elements.push('NULL');
      else if (typeof element === 'string' || (typeof element === 'number' && Number.isFinite(element)))
        elements.push(`"${String(element).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`);
      else return undefined;
    }
    return literalOf(`{${elements.join(',')}}`);
  }
  return undefined;
}
