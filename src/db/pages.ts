import type { EntityName } from '@mikro-orm/core';
import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { empty, join, raw, type Sql } from 'sql-template-tag';
import { badRequest } from '../kernel/errors.js';
import { decodeCursor, encodeCursor, pageSize, type Page, type PageArgs } from '../kernel/pagination.js';
import { levelRows, standsAlone, type Shape } from './read-shapes.js';
import { prebuilt } from '../kernel/prebuilt-answers.js';
import { jsonTupleOf, quote, readRows, rowsOf, tableOf, type Plain } from './statements.js';

/** A part of a list's sort key: an SQL expression of the row, its direction, and its value in a row. */
export type SortKey<T> = {
  sql: string;
  desc?: boolean;
  /** The key is a date-time: it travels in the cursor as epoch milliseconds. */
  time?: boolean;
  /** The key is a text array: it travels in the cursor as the JSON text of the array. */
  array?: boolean;
  /** The key is an integer column: the cursor's part must be an integer the column can hold. */
  integer?: boolean;
  of: (row: T) => string | number | Date | readonly string[];
};

/**
 * One list of rows of an entity, as SQL: the rows of `entity` (table alias `alias`) that `where` selects,
 * in the order of `order`, whose last key must make the order total (an id). `where` carries its
 * parameters (sql-template-tag).
 */
export type ListQuery<T> = {
  entity: EntityName<T>;
  alias: string;
  where: Sql;
  order: readonly SortKey<T>[];
  /** Columns read besides the entity's, as property name → SQL expression (e.g. a key the database keeps, a role ranked in SQL). */
  extra?: Readonly<Record<string, string | Sql>>;
  /** The list's exact size when the database keeps it (row-counts.ts): a statement of one row, `count`. */
  count?: Sql;
  /**
   * What each item is read as: the selection's shape (db/read-shapes.ts: the asked columns and what is
   * nested under them, as JSON the database builds); whole rows when none is given.
   */
  shape?: Shape;
};

/**
 * Reads one page of a list in SQL: the rows after the cursor (a keyset condition on the sort key, so a
 * page costs the same wherever it is in the list, and rows added or removed elsewhere never shift a
 * page), `LIMIT limit + 1` to know whether another page follows, and the exact count: the size the
 * database keeps for the long lists (`count`), else a count through an index. Nothing else of the list
 * is read. Page and count are one statement: each statement costs the server a round trip.
 */
export async function readPage<T>(em: EntityManager, list: ListQuery<T>, args: PageArgs): Promise<Page<Plain<T>>> {
  const { limit, from, page } = pageStatement(em, list, args);
  const counting = list.count ?? sql`select count(*) as count from ${from} where ${list.where}`;
  // A left join keeps the count's row when the page is empty (its "row" is then null).
  const statement = sql`select (select page_count.count from (${counting}) page_count) as "count", x.* from (select) as one left join lateral (${page}) x on true`;
  const found = await readRows<FoundRow & { count: string | number }>(em, withLevels(em, list, statement));
  const count = Number(found[0]?.count ?? 0);
  return pageOf(
    list,
    rowsFound(
      em,
      list,
      found.filter((row) => row.row !== null),
    ),
    count,
    limit,
  );
}

/** The statement of one page: the rows after the cursor, one more than the limit (does another page follow?). */
function pageStatement<T>(em: EntityManager, list: Omit<ListQuery<T>, 'count'>, args: PageArgs) {
  const { limit, after, from, columns, orderBy } = partsOf(em, list, args);
  return { limit, from, page: sql`select ${columns} from ${from} where ${list.where} ${after} order by ${orderBy} limit ${limit + 1}` };
}

/**
 * One page of a list that answers no size (a log whose count would read its whole history): the page
 * statement of readPage alone.
 */
export async function readUncountedPage<T>(em: EntityManager, list: Omit<ListQuery<T>, 'count'>, args: PageArgs): Promise<Omit<Page<Plain<T>>, 'count'>> {
  const { limit, page } = pageStatement(em, list, args);
  const { items, next } = pageOf(list, rowsFound(em, list, await readRows<FoundRow>(em, withLevels(em, list, page))), 0, limit);
  return { items, next };
}

/**
 * A list whose rows belong to parents: `partition` is the SQL expression of a row's parent key.
 * `counts`, when the database keeps the list's sizes: a statement of rows `key` and `count` for the keys.
 */
export type PartitionedList<T> = Omit<ListQuery<T>, 'count'> & { partition: string; counts?: (keys: readonly string[]) => Sql };

/**
 * The same page of one list for many parents at once (a list field of many items of one GraphQL
 * answer): one statement reads every parent's page (a lateral join over the parents' keys) and counts
 * them all, whatever the number of parents.
 */
export async function readPages<T>(em: EntityManager, list: PartitionedList<T>, keys: readonly string[], args: PageArgs): Promise<Page<Plain<T>>[]> {
  const { limit, after, from, columns, orderBy } = partsOf(em, list, args);
  const partition = raw(list.partition);
  const counting =
    list.counts?.(keys) ??
    sql`select ${partition} as "key", count(*) as count from ${from} where ${partition} = any(${keys}::text[]) and ${list.where} group by 1`;
  // Pages and counts in one statement, each page read beside its parent's count: a parent whose list
  // is empty keeps its row (a null "row"), and a parent the counts do not name has no rows at all.
  // The parent's alias must differ from any list's alias, which would hide it inside the page.
  const statement = sql`with counted as (${counting})
    select parent_count.key as "key", parent_count.count as "count", x.* from counted parent_count left join lateral (
    select ${columns} from ${from} where ${partition} = parent_count.key and ${list.where} ${after} order by ${orderBy} limit ${limit + 1}) x on true`;
  // Pages of shapes are the read path's statements, whose plans the embedded database keeps too.
  const all = await readRows<FoundRow & { key: string; count: string | number | null }>(em, withLevels(em, list, statement), { keepPlan: !!list.shape });
  const counts = new Map<string, number>();
  for (const row of all) counts.set(row.key, Number(row.count ?? 0));
  const found = all.filter((row) => row.row !== null);
  const rows = rowsFound(em, list, found);
  const byKey = new Map<string, Plain<T>[]>();
  found.forEach((row, i) => {
    let group = byKey.get(row.key);
    if (!group) byKey.set(row.key, (group = []));
    group.push(rows[i]);
  });
  return keys.map((key) => pageOf(list, byKey.get(key) ?? [], counts.get(key) ?? 0, limit));
}

/** One call of a list field: whose list, which page of it, and what its items are read as (whole rows when no shape). */
export type PageRequest<P> = { parent: P; args: PageArgs; shape?: Shape };

/**
 * A per-request loader of pages of one list for the parents a GraphQL answer walks: calls with the same
 * page arguments go together into one `readPages`. `define` gives the list's SQL for a batch of parents
 * (the same for all but their key, e.g. the viewer's filter for every organization among them).
 */
export function pageLoader<P, T>(
  em: EntityManager,
  keyOf: (parent: P) => string,
  define: (parents: readonly P[]) => Promise<PartitionedList<T>>,
): DataLoader<PageRequest<P>, Page<Plain<T>>, string> {
  const argsKey = (args: PageArgs, shape: Shape | undefined) => `${args.limit ?? ''}|${args.page ?? ''}|${shape?.id ?? ''}`;
  return new DataLoader<PageRequest<P>, Page<Plain<T>>, string>(
    async (requests) => {
      const pages = new Array<Page<Plain<T>> | Error>(requests.length);
      const batches = new Map<string, { request: PageRequest<P>; i: number }[]>();
      requests.forEach((request, i) => {
        const key = argsKey(request.args, request.shape);
        batches.set(key, [...(batches.get(key) ?? []), { request, i }]);
      });
      for (const batch of batches.values()) {
        const parents = batch.map(({ request }) => request.parent);
        try {
          const { args, shape } = batch[0].request;
          const found = await readPages(em, { ...(await define(parents)), shape }, parents.map(keyOf), args);
          batch.forEach(({ i }, j) => (pages[i] = found[j]!));
        } catch (error) {
          // A failure (a limit out of bounds, a bad cursor) is the failure of the pages of its arguments
          // only: the other lists read in the same batch still answer.
          const failure = error instanceof Error ? error : new Error(String(error));
          batch.forEach(({ i }) => (pages[i] = failure));
        }
      }
      return pages;
    },
    { cacheKeyFn: ({ parent, args, shape }) => `${keyOf(parent)}|${argsKey(args, shape)}`, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  );
}

type FoundRow = Record<string, unknown> & { row: unknown[] };

/**
 * The page statement with the levels of the items' relations (db/read-shapes.ts) when its shape has
 * any: the page finds its rows' keys (`"@id"`), then each level is read for the rows found, and the
 * items' objects are built from the levels, in the order the page found them.
 */
function withLevels<T>(em: EntityManager, list: Omit<ListQuery<T>, 'count'>, statement: Sql): Sql {
  const placed = list.shape?.place(list.alias);
  if (!placed || standsAlone(placed)) return statement;
  const table = tableOf(em, list.entity);
  const alias = raw(quote(list.alias));
  const key = raw(quote(list.shape!.keyColumn));
  const object = list.shape!.answers ? sql`${placed.object}::text` : placed.object;
  const levels = [
    sql`found as (select found.*, row_number() over () as "@seq" from (${statement}) found)`,
    sql`${levelRows(list.alias)} as (select ${alias}.* from ${table} ${alias} where ${alias}.${key} in (select "@id" from found))`,
    ...placed.ctes,
  ];
  return sql`with ${join(levels, ', ')}
    select found.*, case when found."@id" is null then null else ${object} end as "row"
    from found left join ${table} ${alias} on ${alias}.${key} = found."@id" ${placed.joins} order by found."@seq"`;
}

function partsOf<T>(em: EntityManager, list: ListQuery<T>, args: PageArgs) {
  const limit = pageSize(args.limit);
  const extra = Object.entries(list.extra ?? {});
  const placed = list.shape?.place(list.alias);
  return {
    limit,
    after: args.page ? afterCursor(list.order, decodeCursor(args.page)) : empty,
    from: sql`${tableOf(em, list.entity)} ${raw(list.alias)}`,
    columns: join(
      [
        // An answer comes as its text, which goes into the response as it is.
        // A shape with levels reads its rows' keys, and its objects once the page is found (withLevels).
        placed && !standsAlone(placed)
          ? raw(`${quote(list.alias)}.${quote(list.shape!.keyColumn)} as "@id"`)
          : list.shape?.answers
            ? sql`${placed!.object}::text as "row"`
            : placed
              ? sql`${placed.object} as "row"`
              : sql`${jsonTupleOf(em, list.entity, list.alias)} as "row"`,
        ...extra.map(([name, expression]) => (typeof expression === 'string' ? raw(`${expression} as "${name}"`) : sql`${expression} as ${raw(`"${name}"`)}`)),
        // A shape reads only what the selection asks: the sort key travels beside it, for the cursor.
        // Date-times as epoch milliseconds, as a cursor holds them, whatever the driver makes of the column.
        ...(list.shape
          ? list.order.map((key, i) => raw(`${key.time ? `floor(extract(epoch from ${key.sql}) * 1000)::float8` : key.sql} as "${ORDER_KEY}${i}"`))
          : []),
      ],
      ', ',
    ),
    orderBy: raw(list.order.map((key) => `${key.sql} ${key.desc ? 'desc' : 'asc'}`).join(', ')),
  };
}

/** The entity rows of what a page statement found, with the extra columns on them. */
function rowsFound<T>(em: EntityManager, list: ListQuery<T>, found: readonly FoundRow[]): Plain<T>[] {
  const { shape } = list;
  const rows = shape?.answers
    ? found.map((r) => ({ [ANSWER]: r.row }) as unknown as Plain<T>)
    : shape
      ? found.map((r) => shape.hydrate(r.row as unknown as Record<string, unknown>) as Plain<T>)
      : rowsOf<Plain<T>>(
          em,
          list.entity,
          found.map((r) => r.row),
        );
  const names = [...Object.keys(list.extra ?? {}), ...(shape ? list.order.map((_, i) => `${ORDER_KEY}${i}`) : [])];
  for (const name of names) rows.forEach((row, i) => ((row as Record<string, unknown>)[name] = found[i][name]));
  return rows;
}

/** The prefix of the sort key's values on a row read as a shape. */
const ORDER_KEY = '@order';
/** Where a row read as an answer holds its JSON text. */
const ANSWER = '@answer';

/** The value of the list's `i`th sort key of a row: read beside a shaped row, else taken from the row. */
function sortValue<T>(list: ListQuery<T>, row: Plain<T>, i: number): string | number | Date | readonly string[] {
  if (!list.shape) return list.order[i].of(row);
  return (row as Record<string, unknown>)[`${ORDER_KEY}${i}`] as string | number | readonly string[];
}

function pageOf<T>(list: ListQuery<T>, rows: Plain<T>[], count: number, limit: number): Page<Plain<T>> {
  const items = rows.length > limit ? rows.slice(0, limit) : rows;
  const last = items[items.length - 1];
  return {
    items: list.shape?.answers
      ? prebuilt<Plain<T>[]>(`[${items.map((row) => (row as Record<string, unknown>)[ANSWER]).join(',')}]`, list.shape.nullsLeftOut)
      : items,
    count,
    next: rows.length > limit && last ? { page: encodeCursor(list.order.map((_, i) => cursorPart(sortValue(list, last, i)))) } : null,
  };
}

const cursorPart = (value: string | number | Date | readonly string[]) =>
  value instanceof Date ? value.getTime() : typeof value === 'object' ? JSON.stringify(value) : value;

/** Date-times PostgreSQL and JavaScript both hold, in epoch milliseconds (4713 BC to 275760 AD). */
const TIME_RANGE_MS = [-210_866_803_200_000, 8_640_000_000_000_000] as const;
const INT4_MAX = 2_147_483_647;

/** True when a cursor's part is a value of its key that the database can compare (a forged one must be a 400, never a cast error). */
function partFits<T>(key: SortKey<T>, part: string | number): boolean {
  // PostgreSQL text holds no NUL character.
  if (typeof part === 'string' && part.includes('\u0000')) return false;
  if (key.time) return typeof part === 'number' && part >= TIME_RANGE_MS[0] && part <= TIME_RANGE_MS[1];
  if (key.integer) return Number.isInteger(part) && Math.abs(part as number) <= INT4_MAX;
  if (key.array) {
    try {
      const value: unknown = typeof part === 'string' ? JSON.parse(part) : null;
      return Array.isArray(value) && value.every((item) => typeof item === 'string' && !item.includes('\u0000'));
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * `and <the rows after the cursor>` in the list's order, or a 400 when the cursor is not one this list
 * handed out. Keys in one direction compare as a row, which an index on those columns answers as a
 * range; mixed directions expand into the nested form, led by a bound on the first key so that the
 * index still starts at the cursor.
 */
function afterCursor<T>(order: readonly SortKey<T>[], parts: (string | number)[]): Sql {
  const fits = parts.length === order.length && order.every((key, i) => partFits(key, parts[i]));
  if (!fits) throw badRequest('page: not a page identifier returned by this list');
  const value = (i: number) => {
    if (order[i].time) return sql`to_timestamp(${parts[i]}::float8 / 1000)`;
    if (order[i].array) return sql`array(select json_array_elements_text(${parts[i]}::json))`;
    return sql`${parts[i]}`;
  };
  const column = (i: number) => raw(order[i].sql);
  if (order.every((key) => !!key.desc === !!order[0].desc)) {
    const columns = join(order.map((_, i) => column(i)));
    const values = join(order.map((_, i) => value(i)));
    return order[0].desc ? sql`and (${columns}) < (${values})` : sql`and (${columns}) > (${values})`;
  }
  const beyond = (i: number) => (order[i].desc ? sql`${column(i)} < ${value(i)}` : sql`${column(i)} > ${value(i)}`);
  const nested = (i: number): Sql => (i === order.length - 1 ? beyond(i) : sql`(${beyond(i)} or (${column(i)} = ${value(i)} and ${nested(i + 1)}))`);
  const lead = order[0].desc ? sql`${column(0)} <= ${value(0)}` : sql`${column(0)} >= ${value(0)}`;
  return sql`and ${lead} and ${nested(0)}`;
}
