import sql, { empty, join, raw, type Sql } from 'sql-template-tag';
import { z } from 'zod';
import type { Context } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import { describeArgument, parseInput } from '../../kernel/validation.js';
import { COLUMNS, COLUMN_NAMES, INTERVALS, type Aggregate, type ColumnDefinition, type Dimension, type Interval, type ValueType } from './columns.js';
import { isIsoTime, queryRange, type TimeRange } from './ranges.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOn, kyselyOf, type Executor } from '../../db/statements.js';
import { isEmbedded, watermarkOf, watermarkQuery } from './storage.js';
import { ROLLUPS, rollupTable, type Grain, type Rollup } from './tables.js';

/** A column of a request (the reference's SiteInsightsQueryEventsColumn). */
export type ColumnInput = { column: string; interval?: string | null; claim?: string | null; precision?: number | null };
export type FilterInput = ColumnInput & { operator?: string | null; values: unknown[] };
export type AggregateRequest = {
  select?: ColumnInput[] | null;
  where?: FilterInput[] | null;
  groupBy?: ColumnInput[] | null;
  order?: { by: ColumnInput; direction: string } | null;
  range: unknown;
  limit?: number | null;
};
export type ColumnValues = { column: string; claim?: string; values: unknown[] };

/** The request's optional parts are given or left out, never null; planAggregate checks what they hold. */
const RequestParts = z.looseObject({
  select: z.array(z.unknown()).optional(),
  where: z.array(z.unknown()).optional(),
  groupBy: z.array(z.unknown()).optional(),
  order: z.looseObject({}).optional(),
  limit: z.number().optional(),
});

export const MAX_LIMIT = 1000;
describeArgument('aggregateSiteEvents', 'limit', { minimum: 1, maximum: MAX_LIMIT, default: MAX_LIMIT });
const OPERATORS = ['in', 'notIn', 'greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual'] as const;
type Operator = (typeof OPERATORS)[number];
const COMPARISON: Record<Exclude<Operator, 'in' | 'notIn'>, Sql> = {
  greaterThan: raw('>'),
  greaterThanOrEqual: raw('>='),
  lessThan: raw('<'),
  lessThanOrEqual: raw('<='),
};
const MAX_FILTER_VALUES = 1000;

/** A value as a parameter of the statement (only its placeholder enters the SQL text), cast to `type` (a type the code names). */
const bound = (value: unknown, type?: string): Sql => (type ? sql`${value}::${raw(type)}` : sql`${value}`);

/** A request column resolved against the whitelist. */
type Resolved = {
  name: string;
  claim?: string;
  interval?: Interval;
  definition: ColumnDefinition;
  /** Identifies the column for matching `order.by` and spotting duplicates. */
  key: string;
};

const ISO_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

function resolveColumn(input: ColumnInput, at: string): Resolved {
  const { column } = input;
  if (!COLUMN_NAMES.includes(column)) throw badRequest(`${at}.column: unknown column "${String(column).slice(0, 64)}"`);
  if (input.interval != null && column !== 'datetime') throw badRequest(`${at}.interval: only the datetime column takes an interval`);
  if (input.claim != null && column !== 'visitorClaim') throw badRequest(`${at}.claim: only the visitorClaim column takes a claim`);
  if (input.precision != null && (column !== 'visitorGeoPoint' || !Number.isInteger(input.precision) || input.precision < 0 || input.precision > 15)) {
    throw badRequest(`${at}.precision: only visitorGeoPoint takes a precision, an integer from 0 to 15`);
  }
  if (column === 'datetime') {
    const interval = input.interval ?? undefined;
    if (interval !== undefined && !(INTERVALS as readonly string[]).includes(interval)) {
      throw badRequest(`${at}.interval: must be one of: ${INTERVALS.join(', ')}`);
    }
    // The interval comes from the whitelist above, so it may stand in the text.
    const time = interval ? `date_trunc('${interval}', e."time", 'UTC')` : `e."time"`;
    const definition: Dimension = {
      kind: 'dimension',
      sql: [raw(`to_char(${time} at time zone 'UTC', ${ISO_FORMAT})`)],
      reads: [],
      valueType: 'timestamptz',
      filterable: true,
      nullable: false,
    };
    return { name: column, interval: interval as Interval | undefined, definition, key: `datetime:${interval ?? ''}` };
  }
  if (column === 'visitorClaim') {
    const claim = input.claim;
    if (typeof claim !== 'string' || claim.length === 0 || claim.length > 256)
      throw badRequest(`${at}.claim: is required, a claim name (dots reach nested claims)`);
    const definition: Dimension = {
      kind: 'dimension',
      sql: [sql`e."claims" #>> ${bound(claim.split('.'), 'text[]')}`],
      reads: ['claims'],
      valueType: 'text',
      filterable: true,
      nullable: false,
    };
    return { name: column, claim, definition, key: `visitorClaim:${claim}` };
  }
  return { name: column, definition: COLUMNS[column], key: column };
}

function resolveList(inputs: ColumnInput[] | null | undefined, field: string): Resolved[] {
  const seen = new Set<string>();
  return (inputs ?? []).map((input, i) => {
    const resolved = resolveColumn(input, `${field}[${i}]`);
    if (seen.has(resolved.key)) throw badRequest(`${field}[${i}].column: "${input.column}" is listed twice`);
    seen.add(resolved.key);
    return resolved;
  });
}

// ─── filters ────────────────────────────────────────────────────────────────────────────────────────

function checkValue(value: unknown, type: ValueType, at: string): unknown {
  if (value === null) return null;
  if (type === 'int') {
    if (!Number.isInteger(value)) throw badRequest(`${at}: must be an integer or null`);
    return value;
  }
  if (type === 'timestamptz') {
    if (!isIsoTime(value)) throw badRequest(`${at}: must be an ISO 8601 date-time`);
    return value;
  }
  if (typeof value !== 'string') throw badRequest(`${at}: must be a string or null`);
  return value;
}

/** The SQL condition of one filter on a dimension; every value is a bound parameter. */
function dimensionCondition(column: Resolved, operator: Operator, values: unknown[], at: string): Sql {
  const definition = column.definition as Dimension;
  if (!definition.filterable) throw badRequest(`${at}.column: "${column.name}" cannot be filtered`);
  const type = definition.valueType;
  // A filter on datetime compares the event's own time, whatever interval a column groups by.
  const expression = column.name === 'datetime' ? raw('e."time"') : definition.sql[0];
  if (operator !== 'in' && operator !== 'notIn') {
    const value = checkValue(values[0], type, `${at}.values[0]`);
    if (values.length !== 1 || value === null) throw badRequest(`${at}.values: ${operator} takes exactly one non-null value`);
    return sql`${expression} ${COMPARISON[operator]} ${bound(value, type)}`;
  }
  if (column.name === 'page') return pageCondition(operator, values, at);
  const checked = values.map((value, i) => checkValue(value, type, `${at}.values[${i}]`));
  const present = checked.filter((value) => value !== null);
  const withNull = present.length < checked.length;
  const list = bound(present, `${type}[]`);
  return operator === 'in'
    ? sql`(${expression} = any(${list})${withNull ? sql` or ${expression} is null` : empty})`
    : sql`(${expression} <> all(${list}) ${raw(withNull ? 'and' : 'or')} ${expression} is ${raw(withNull ? 'not ' : '')}null)`;
}

/** `page` values are null, a page id, or `{space, page}` (the reference's shape of its values). */
function pageCondition(operator: 'in' | 'notIn', values: unknown[], at: string): Sql {
  const pages: string[] = [];
  const spaces: string[] = [];
  const pairPages: (string | null)[] = [];
  let withNull = false;
  values.forEach((value, i) => {
    if (value === null) withNull = true;
    else if (typeof value === 'string') pages.push(value);
    else if (typeof value === 'object' && !Array.isArray(value) && typeof (value as { space?: unknown }).space === 'string') {
      const page = (value as { page?: unknown }).page ?? null;
      if (page !== null && typeof page !== 'string') throw badRequest(`${at}.values[${i}].page: must be a string or null`);
      spaces.push((value as { space: string }).space);
      pairPages.push(page);
    } else throw badRequest(`${at}.values[${i}]: must be null, a page id or {space, page}`);
  });
  const matches = [
    sql`e."page" = any(${bound(pages, 'text[]')})`,
    sql`exists (select 1 from unnest(${bound(spaces, 'text[]')}, ${bound(pairPages, 'text[]')}) as v(space, page) where v.space = e."space" and v.page is not distinct from e."page")`,
    ...(withNull ? [sql`(e."space" is null and e."page" is null)`] : []),
  ];
  const matched = sql`(${join(matches, ' or ')})`;
  return operator === 'in' ? matched : sql`not coalesce(${matched}, false)`;
}

type Conditions = { where: Sql[]; having: Sql[]; filtered: Resolved[] };

/** The request's conditions: on dimensions (WHERE) and on counts (HAVING); `part` builds only one of them. */
function filters(
  inputs: FilterInput[] | null | undefined,
  aggregateSql: (definition: Aggregate) => Sql[],
  part: 'where' | 'having' | 'both' = 'both',
): Conditions {
  const result: Conditions = { where: [], having: [], filtered: [] };
  (inputs ?? []).forEach((input, i) => {
    const at = `where[${i}]`;
    const column = resolveColumn(input, at);
    const operator = (input.operator ?? 'in') as Operator;
    if (!(OPERATORS as readonly string[]).includes(operator))
      throw badRequest(`${at}.operator: unknown operator "${String(operator).slice(0, 64)}" (one of: ${OPERATORS.join(', ')})`);
    if (!Array.isArray(input.values)) throw badRequest(`${at}.values: must be an array`);
    if (input.values.length > MAX_FILTER_VALUES) throw badRequest(`${at}.values: at most ${MAX_FILTER_VALUES} values`);
    result.filtered.push(column);
    if (column.definition.kind === 'dimension') {
      if (part !== 'having') result.where.push(dimensionCondition(column, operator, input.values, at));
      return;
    }
    if (!column.definition.scalar) throw badRequest(`${at}.column: "${column.name}" cannot be filtered`);
    const numbers = input.values.map((value, j) => {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest(`${at}.values[${j}]: must be a number`);
      return value;
    });
    if (part === 'where') return;
    const expression = aggregateSql(column.definition)[0];
    if (operator === 'in' || operator === 'notIn') {
      const list = bound(numbers, 'double precision[]');
      result.having.push(operator === 'in' ? sql`${expression} = any(${list})` : sql`${expression} <> all(${list})`);
    } else {
      if (numbers.length !== 1) throw badRequest(`${at}.values: ${operator} takes exactly one value`);
      result.having.push(sql`${expression} ${COMPARISON[operator]} ${bound(numbers[0], 'double precision')}`);
    }
  });
  return result;
}

// ─── sources: raw rows or rollups ───────────────────────────────────────────────────────────────────

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const floorTo = (time: Date, unit: number) => new Date(Math.floor(time.getTime() / unit) * unit);
const ceilTo = (time: Date, unit: number) => new Date(Math.ceil(time.getTime() / unit) * unit);

type Piece = { source: 'raw' | Grain; from: Date; to: Date };

/**
 * Splits [from, to) so that whole UTC days come from a daily rollup, the whole hours around them from
 * an hourly one, and only the partial hours at the edges from raw rows. Counts add up across pieces.
 * An answer in hourly buckets reads hourly rollups for every whole hour. Rollups hold the events before
 * the site's `watermark` (epoch ms, on an hour) only: from there on, raw rows.
 */
export function piecesOf(range: TimeRange, hourly = false, watermark = Infinity): Piece[] {
  const { from, to } = range;
  const cut = new Date(Math.min(to.getTime(), Math.max(from.getTime(), watermark)));
  const h1 = ceilTo(from, HOUR);
  const h2 = floorTo(cut, HOUR);
  if (h1 >= h2) return [{ source: 'raw', from, to }];
  const d1 = ceilTo(from, DAY);
  const d2 = floorTo(cut, DAY);
  const pieces: Piece[] =
    hourly || d1 >= d2
      ? [
          { source: 'raw', from, to: h1 },
          { source: 'hour', from: h1, to: h2 },
          { source: 'raw', from: h2, to },
        ]
      : [
          { source: 'raw', from, to: h1 },
          { source: 'hour', from: h1, to: d1 },
          { source: 'day', from: d1, to: d2 },
          { source: 'hour', from: d2, to: h2 },
          { source: 'raw', from: h2, to },
        ];
  return pieces.filter((piece) => piece.from < piece.to);
}

/** The rollup whose dimensions hold every column the request reads, if counting events is all it does. */
function rollupFor(columns: Resolved[], filtered: Resolved[]): Rollup | undefined {
  if (columns.some((c) => c.definition.kind === 'aggregate' && !c.definition.rollup)) return undefined;
  // Rollups hold hours: an event's own time (no interval) is beyond them.
  if (columns.some((c) => c.name === 'datetime' && !c.interval)) return undefined;
  if (filtered.some((c) => c.name === 'datetime' || (c.definition.kind === 'aggregate' && !c.definition.rollup))) return undefined;
  const reads = [...columns, ...filtered].flatMap((c) => (c.definition.kind === 'dimension' ? c.definition.reads : []));
  if ([...columns, ...filtered].some((c) => c.name === 'visitorClaimProperty' || c.name === 'visitorClaim' || c.name === 'visitorGeoPoint')) return undefined;
  return ROLLUPS.find((rollup) => reads.every((column) => (rollup.dimensions as readonly string[]).includes(column)));
}

/** The rows of a rollup over the pieces of a range (a key may have several rows: counts are summed). */
function rollupSource(rollup: Rollup, pieces: Piece[], site: Sql): Sql {
  const columns = raw(['time', ...rollup.dimensions].map((c) => `"${c}"`).join(', '));
  const parts = pieces.map((piece) => {
    const table = raw(`"${piece.source === 'raw' ? 'insight_event' : rollupTable(rollup, piece.source)}"`);
    const events = raw(piece.source === 'raw' ? '1::bigint' : '"events"');
    return sql`select ${columns}, ${events} as "events" from ${table} where "site_id" = ${site} and "time" >= ${bound(piece.from.toISOString(), 'timestamptz')} and "time" < ${bound(piece.to.toISOString(), 'timestamptz')}`;
  });
  return sql`(${join(parts, ' union all ')}) e`;
}

// ─── the query ──────────────────────────────────────────────────────────────────────────────────────

type Slot = { column: Resolved; positions: number[] };

/**
 * A plan: one statement (`statement`), or, for raw rows read in time slices, short statements (`steps`)
 * that gather partial counts in temporary tables, a final statement over them, and the tables to drop.
 */
export type AggregatePlan = {
  statement: Sql;
  source: 'raw' | 'sliced' | string;
  slices?: { steps: Sql[]; final: Sql; tables: string[] };
  decode: (rows: Record<string, unknown>[]) => ColumnValues[];
};

/** Hash buckets of visitors (or sessions) that distinct counts over slices are finished in, one at a time. */
const ID_BUCKETS = 16;

/** The answer's columns: the selected ones, then grouping columns not selected; nothing selected counts events. */
function outputsOf(request: AggregateRequest): Resolved[] {
  const selected = resolveList(request.select, 'select');
  const grouped = resolveList(request.groupBy, 'groupBy');
  for (const [i, column] of grouped.entries()) {
    if (column.definition.kind === 'aggregate') throw badRequest(`groupBy[${i}].column: "${column.name}" is a count and cannot group`);
  }
  const outputs = [...selected, ...grouped.filter((g) => !selected.some((s) => s.key === g.key))];
  if (outputs.length === 0 || (outputs.every((c) => c.definition.kind === 'dimension') && selected.length === 0)) {
    outputs.push(resolveColumn({ column: 'eventsCount' }, 'select'));
  }
  return outputs;
}

/** Columns whose reference values cannot be null leave out the events without a value. */
const notNull = (outputs: Resolved[]) =>
  outputs.flatMap((c) => (c.definition.kind === 'dimension' && !c.definition.nullable ? c.definition.sql.map((e) => sql`${e} is not null`) : []));

/** Conditions every raw-row read shares: the site, a time range, the filters and the non-null columns. */
function rowConditions(site: Sql, from: Sql, to: Sql, where: Sql[], outputs: Resolved[]): Sql[] {
  return [sql`e."site_id" = ${site}`, sql`e."time" >= ${from}`, sql`e."time" < ${to}`, ...where, ...notNull(outputs)];
}

const joinFor = (columns: Resolved[]) =>
  columns.some((c) => c.name === 'visitorClaimProperty')
    ? raw(` cross join lateral jsonb_object_keys(coalesce(e."claims", '{}'::jsonb)) as claim_property(key)`)
    : empty;

/** Builds `select … from … where … group by … having … order by … limit`. */
function selectStatement(parts: { select: Sql[]; from: Sql; where?: Sql[]; groupBy?: number[]; having?: Sql[]; orderBy?: string[]; limit?: Sql }): Sql {
  const columns = parts.select.map((expression, i) => sql`${expression} as ${raw(`c${i + 1}`)}`);
  const clauses = [sql`select ${join(columns, ', ')}`, sql`from ${parts.from}`];
  if (parts.where?.length) clauses.push(sql`where ${join(parts.where, ' and ')}`);
  if (parts.groupBy?.length) clauses.push(raw(`group by ${parts.groupBy.join(', ')}`));
  if (parts.having?.length) clauses.push(sql`having ${join(parts.having, ' and ')}`);
  if (parts.orderBy?.length) clauses.push(raw(`order by ${parts.orderBy.join(', ')}`));
  if (parts.limit) clauses.push(sql`limit ${parts.limit}`);
  return join(clauses, ' ');
}

/**
 * How to plan: `rollups` false reads raw rows only; `sliced` reads raw rows in time slices; `watermark`
 * (epoch ms) is how far the site's rollups hold every event (none given: they hold all).
 */
export type PlanOptions = { rollups?: boolean; sliced?: boolean; watermark?: number };

/** Time slices of raw reads on the embedded database: each statement stays short. */
export const SLICE_MS = 7 * DAY;
/** A counter that names the temporary tables of sliced reads apart (no state: any unused number will do). */
let sliceTables = 0;

/** The start of the UTC week (Monday, as date_trunc) or month of a time. */
function bucketStart(time: Date, interval: 'week' | 'month'): Date {
  if (interval === 'month') return new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), 1));
  const day = floorTo(time, DAY);
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
}

/**
 * Cuts a range into slices of a week. With time buckets, slice edges fall on bucket edges (UTC days,
 * a day per slice; Mondays for weeks; first days for months), so no bucket spans two slices.
 */
export function sliceRanges(range: TimeRange, interval?: Interval): TimeRange[] {
  const edges: number[] = [range.from.getTime()];
  const next = (edge: number): number => {
    if (interval === 'month') {
      const start = bucketStart(new Date(edge), 'month');
      return Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
    }
    if (interval === 'week') return bucketStart(new Date(edge), 'week').getTime() + SLICE_MS;
    // Hours and days: one day per slice, as counting distinct ids per bucket costs more than adding.
    if (interval) return floorTo(new Date(edge), DAY).getTime() + DAY;
    return edge + SLICE_MS;
  };
  while (edges[edges.length - 1] < range.to.getTime()) edges.push(Math.min(next(edges[edges.length - 1]), range.to.getTime()));
  return edges.slice(1).map((to, i) => ({ from: new Date(edges[i]), to: new Date(to) }));
}

/**
 * Validates a request against the whitelist and plans it: over a rollup when one holds every column it
 * reads (unless `rollups` is false), else over raw rows; `sliced` reads raw rows in time slices.
 */
export function planAggregate(siteId: string, request: AggregateRequest, now: Date, options: PlanOptions = {}): AggregatePlan {
  const range = queryRange(request.range, now);
  const limit = request.limit ?? MAX_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw badRequest(`limit: must be an integer from 1 to ${MAX_LIMIT}`);

  // Each fragment carries its own parameters: a statement carries those of the fragments it is made of.
  const outputs = outputsOf(request);
  const probe = filters(request.where, (d) => d.raw);
  const rollup = options.rollups === false ? undefined : rollupFor(outputs, probe.filtered);
  // A range up to half a slice longer than one (last7Days) is not worth a second statement.
  const sliced = !rollup && options.sliced === true && range.to.getTime() - range.from.getTime() > 1.5 * SLICE_MS;

  // In a sliced plan the final statement reads partial counts: each aggregate's partial columns are
  // summed, and distinct counts count the visitor or session ids kept per group.
  const partialColumns = new Map<Aggregate, string[]>();
  const distinctIds = new Set<'visitor_id' | 'session_id'>();
  // Slices that follow the answer's time buckets hold whole groups: their distinct counts are final.
  const bucketed = outputs.find((c) => c.name === 'datetime' && c.interval)?.interval;
  const merged = (definition: Aggregate): Sql[] => {
    if (!bucketed && definition === COLUMNS.visitorsCount) return (distinctIds.add('visitor_id'), [raw(`sum(e."visitors")`)]);
    if (!bucketed && definition === COLUMNS.sessionsCount) return (distinctIds.add('visitor_id').add('session_id'), [raw(`sum(e."sessions")`)]);
    let names = partialColumns.get(definition);
    if (!names) partialColumns.set(definition, (names = definition.raw.map((_, i) => `p${partialColumns.size + 1}_${i + 1}`)));
    return names.map((name) => raw(`sum(e."${name}")`));
  };
  const aggregateSql = (definition: Aggregate) => (rollup ? definition.rollup! : sliced ? merged(definition) : definition.raw);

  // The answer's expressions: dimensions (read from the temporary table's d<n> columns when sliced), then counts.
  const expressions: Sql[] = [];
  const slots: Slot[] = [];
  let dimensionIndex = 0;
  for (const column of outputs) {
    const columnSql =
      column.definition.kind === 'dimension'
        ? column.definition.sql.map((e) => (sliced ? raw(`e."d${++dimensionIndex}"`) : e))
        : aggregateSql(column.definition);
    slots.push({ column, positions: columnSql.map((expression) => expressions.push(expression)) });
  }
  const groupPositions = slots.filter((s) => s.column.definition.kind === 'dimension').flatMap((s) => s.positions);
  // A sliced plan's final statement reads dimensions from the temporary table: their conditions go to the slices.
  const conditions = filters(request.where, aggregateSql, sliced ? 'having' : 'both');
  const order = orderOf(request.order, slots);
  const orderBy = [...order, ...groupPositions.filter((p) => !order.some((o) => o.startsWith(`${p} `))).map((p) => `${p} asc`)];
  const lateral = joinFor([...outputs, ...conditions.filtered]);

  let plan: { statement: Sql; source: string; slices?: AggregatePlan['slices'] };
  if (rollup) {
    const where = [...conditions.where, ...notNull(outputs)];
    const from = sql`${rollupSource(rollup, piecesOf(range, bucketed === 'hour', options.watermark), bound(siteId))}${lateral}`;
    plan = {
      statement: selectStatement({
        select: expressions,
        from,
        where,
        groupBy: groupPositions,
        having: conditions.having,
        orderBy,
        limit: bound(limit, 'int'),
      }),
      source: rollup.name,
    };
  } else if (!sliced) {
    const where = rowConditions(
      bound(siteId),
      bound(range.from.toISOString(), 'timestamptz'),
      bound(range.to.toISOString(), 'timestamptz'),
      conditions.where,
      outputs,
    );
    const statement = selectStatement({
      select: expressions,
      from: sql`"insight_event" e${lateral}`,
      where,
      groupBy: groupPositions,
      having: conditions.having,
      orderBy,
      limit: bound(limit, 'int'),
    });
    plan = { statement, source: 'raw' };
  } else {
    plan = { ...slicedSteps(), source: 'sliced' };
  }

  /**
   * Each slice adds its partial counts per group to a temporary table. Distinct counts keep the visitor
   * and session ids per group; that table is then hash-partitioned by id, so that each partition is
   * finished (ids counted) in a statement of its own, and the final statement only adds those counts.
   */
  function slicedSteps(): { statement: Sql; slices: NonNullable<AggregatePlan['slices']> } {
    const table = `insight_slices_${++sliceTables}`;
    // Visitors first: the id table is partitioned by visitor, and sessions are counted per visitor.
    const ids = [...distinctIds].sort((a, b) => (a === 'visitor_id' ? -1 : b === 'visitor_id' ? 1 : 0));
    const sums = [...partialColumns.values()].flat();
    const dimensionsRead = outputs.flatMap((c) => (c.definition.kind === 'dimension' ? c.definition.sql : []));
    const dimensionConditions = filters(request.where, (d) => d.raw, 'where').where;
    const counts = [...partialColumns.keys()].flatMap((definition) => definition.raw);
    const select = (from: Date, to: Date): Sql => {
      const where = rowConditions(
        bound(siteId),
        bound(from.toISOString(), 'timestamptz'),
        bound(to.toISOString(), 'timestamptz'),
        dimensionConditions,
        outputs,
      );
      const keys = dimensionsRead.length + ids.length;
      return selectStatement({
        select: [...dimensionsRead, ...ids.map((id) => raw(`e."${id}"`)), ...counts],
        from: sql`"insight_event" e${lateral}`,
        where,
        groupBy: Array.from({ length: keys }, (_, i) => i + 1),
      });
    };
    const quoted = (names: string[]) => raw(names.map((n) => `"${n}"`).join(', '));
    const named = (name: string) => raw(`"${name}"`);
    const dimensions = Array.from({ length: dimensionIndex }, (_, i) => `d${i + 1}`);
    // The temporary table's columns: d<n> for dimensions, the id columns, and p<k>_<i> for partial counts.
    const names = [...dimensions, ...ids, ...sums];
    const ranges = sliceRanges(range, bucketed);
    const steps: Sql[] = [];
    const tables = [table];
    if (ids.length === 0) {
      ranges.forEach((r, i) => {
        const slice = select(r.from, r.to);
        steps.push(i === 0 ? sql`create temp table ${named(table)} (${quoted(names)}) as ${slice}` : sql`insert into pg_temp.${named(table)} ${slice}`);
      });
    } else {
      const shape = `${table}_shape`;
      const finished = `${table}_finished`;
      tables.unshift(shape, finished);
      steps.push(sql`create temp table ${named(shape)} (${quoted(names)}) as ${select(ranges[0].from, ranges[0].to)} with no data`);
      steps.push(raw(`create temp table "${table}" (like pg_temp."${shape}") partition by hash ("${ids[0]}")`));
      for (let k = 0; k < ID_BUCKETS; k++) {
        steps.push(raw(`create temp table "${table}_${k}" partition of pg_temp."${table}" for values with (modulus ${ID_BUCKETS}, remainder ${k})`));
      }
      for (const r of ranges) steps.push(sql`insert into pg_temp.${named(table)} ${select(r.from, r.to)}`);
      const counted = ids.map((id) =>
        raw((id === 'visitor_id' ? `count(distinct e."visitor_id")` : `count(distinct (e."visitor_id", e."session_id"))`) + '::double precision'),
      );
      const finishedNames = [...dimensions, ...sums, ...ids.map((id) => (id === 'visitor_id' ? 'visitors' : 'sessions'))];
      for (let k = 0; k < ID_BUCKETS; k++) {
        const partition = selectStatement({
          select: [...dimensions.map((d) => raw(`e."${d}"`)), ...sums.map((p) => raw(`sum(e."${p}")`)), ...counted],
          from: raw(`pg_temp."${table}_${k}" e`),
          groupBy: dimensions.map((_, i) => i + 1),
        });
        steps.push(
          k === 0
            ? sql`create temp table ${named(finished)} (${quoted(finishedNames)}) as ${partition}`
            : sql`insert into pg_temp.${named(finished)} ${partition}`,
        );
      }
    }
    const source = ids.length ? `${table}_finished` : table;
    const final = selectStatement({
      select: expressions,
      from: raw(`pg_temp."${source}" e`),
      groupBy: groupPositions,
      having: conditions.having,
      orderBy,
      limit: bound(limit, 'int'),
    });
    return { statement: final, slices: { steps, final, tables } };
  }

  const decode = (rows: Record<string, unknown>[]): ColumnValues[] =>
    slots.map(({ column, positions }) => {
      const definition = column.definition;
      const values = rows.map((row) => {
        const parts = positions.map((p) => row[`c${p}`] ?? null);
        if (definition.value) return definition.value(parts);
        const [value] = parts;
        return definition.kind === 'aggregate' || (definition.kind === 'dimension' && definition.valueType === 'int' && value !== null) ? Number(value) : value;
      });
      return column.claim !== undefined ? { column: column.name, claim: column.claim, values } : { column: column.name, values };
    });
  return { ...plan, decode };
}

/** `order`: a column of the output and a direction; by default time ascending, else the first count descending. */
function orderOf(order: AggregateRequest['order'], slots: Slot[]): string[] {
  if (order) {
    if (order.direction !== 'asc' && order.direction !== 'desc') throw badRequest('order.direction: must be one of: asc, desc');
    const wanted = resolveColumn(order.by, 'order.by'); // only its key is needed
    const slot = slots.find((s) => s.column.key === wanted.key);
    if (!slot) throw badRequest(`order.by.column: "${wanted.name}" must be one of the selected or grouped columns`);
    if (slot.column.definition.kind === 'aggregate' && !slot.column.definition.scalar) throw badRequest(`order.by.column: "${wanted.name}" cannot be ordered`);
    return slot.positions.map((p) => `${p} ${order.direction}${order.direction === 'asc' ? ' nulls first' : ' nulls last'}`);
  }
  const time = slots.find((s) => s.column.name === 'datetime');
  if (time) return time.positions.map((p) => `${p} asc`);
  const count = slots.find((s) => s.column.definition.kind === 'aggregate' && s.column.definition.scalar);
  return count ? count.positions.map((p) => `${p} desc`) : [];
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs a plan's statements. Slices run one statement at a time with a turn of the event loop between
 * them, so that on the embedded database (which computes on this thread) other requests are served
 * meanwhile; on a server they share one connection, which owns the temporary table.
 */
export async function runAggregatePlan(em: EntityManager, plan: AggregatePlan): Promise<Record<string, unknown>[]> {
  const db = kyselyOf(em);
  const { slices } = plan;
  if (!slices) return executeOn(db, plan.statement);
  const work = async (executor: Executor) => {
    try {
      for (const step of slices.steps) {
        await executeOn(executor, step);
        await nextTurn();
      }
      return await executeOn(executor, slices.final);
    } finally {
      for (const table of slices.tables) await executeOn(executor, raw(`drop table if exists pg_temp."${table}"`));
    }
  };
  // The embedded database has one session: holding its connection would keep every other request out.
  return isEmbedded(em) ? work(db) : db.connection().execute(work);
}

/** Answers an aggregate query over the site's events, in the reference's columnar shape. */
export async function aggregateSiteEvents(ctx: Context, siteId: string, request: AggregateRequest): Promise<{ columns: ColumnValues[] }> {
  parseInput(RequestParts, request);
  const watermark = watermarkOf(await executeOn(kyselyOf(ctx.em), watermarkQuery(siteId)));
  const plan = planAggregate(siteId, request, ctx.clock.now(), { sliced: isEmbedded(ctx.em), watermark });
  return { columns: plan.decode(await runAggregatePlan(ctx.em, plan)) };
}
