import type { EntityManager } from '@mikro-orm/postgresql';
import type { GraphQLResolveInfo } from 'graphql';
import type { Sql } from 'sql-template-tag';

/*
 * Read models: how a GraphQL type maps onto its table, declared once beside the area's types and listed
 * on its manifest (`reads`). The read path (db/read-shapes.ts) compiles a request's selection of such a
 * type into one statement whose JSON the database builds: the columns the selection asks for, and for
 * each selected relation its own selection, nested. What a field needs is known from the schema:
 * - a field without a resolver whose name is a property of the entity reads that column;
 * - a field with a resolver reads what `needs` declares for it, or the whole row when nothing is declared
 *   (the safe default: a resolver may read any property);
 * - a field in `sql` is computed by the database in the same statement, and its resolver takes it with
 *   `readAlong`;
 * - a field in `relations` without arguments is read nested, and its resolver takes it with `readAlong`.
 * A resolver keeps its own read (a loader) for rows that arrive another way (a mutation's answer).
 */

/** Rows of another type whose foreign key `foreignKey` holds this row's key, in `order` (whose last key makes it total). */
export type ManyRelation = { many: string; foreignKey: string; order: readonly (readonly [property: string, direction: 'asc' | 'desc'])[] };

/**
 * The row of another type whose key this row's property `key` holds (or none); or the row that `lookup`
 * selects for the row (`select j.* from … j where …`, at most one row: a site's default section), which
 * is read only where the database writes the answer.
 */
export type OneRelation = { one: string; key: string } | { one: string; lookup: (row: Sql, em: EntityManager) => Sql };

/** A part of a nested list's sort key: an SQL expression of its row, its direction, and how a cursor holds it (db/pages.ts `SortKey`). */
export type NestedSortKey = { sql: Sql; desc?: boolean; time?: boolean; array?: boolean };

/**
 * A list field with page arguments (`page`, `limit`) read nested in its parent's statement where the
 * database writes the answer: the page type's `count`, `items` (of `many`) and `next`. `list` gives the
 * list of the parent whose key is `parent`, its rows under the alias `item`: which rows, in which order
 * (its last key makes it total), and its exact size (a count the database keeps, or a count). It must
 * be the list the field's resolver reads, in the same order, with the same cursors, and the same rows
 * for every viewer (their visibility in SQL, through request values).
 */
export type PageRelation = {
  many: string;
  /**
   * The field's other arguments that the list takes (`nested`, `status`), given to `list` as the values
   * the document writes, or the schema's defaults. Written in variables, the resolver answers.
   */
  arguments?: readonly string[];
  /**
   * Its rows are ones the viewer may read (the list keeps only those, or they belong to a parent the
   * viewer may read): fields of its items that are `guarded` can be answered.
   */
  readable?: boolean;
  /**
   * The field's resolver refuses a viewer who may not read the parent (a 403 the database cannot
   * write): the database answers it only for parents listed as `readable`.
   */
  guarded?: boolean;
  list: (item: Sql, parent: Sql, em: EntityManager, args: Readonly<Record<string, unknown>>) => { where: Sql; order: readonly NestedSortKey[]; count: Sql };
};

/**
 * An SQL expression of a row, given its table alias (a quoted identifier fragment). `joined(name)` is
 * the alias of one of the model's `joins`, which the statement then joins at the row's level.
 */
export type RowExpression = (alias: Sql, em: EntityManager, joined: (name: string) => Sql) => Sql;

/**
 * A row that fields of many rows share (their site, their section, the viewer's membership in their
 * organization), read once for the rows' level and joined to them instead of looked up row by row: the
 * row of `entity` whose `column` (a property) equals the row's `value`, among those `where` admits.
 */
export type LevelJoin = {
  entity: string;
  column: string;
  value: (row: Sql, em: EntityManager) => Sql;
  where?: (joined: Sql) => Sql;
  /**
   * Values computed from the joined row, read as its columns: computed once per row joined, not per row
   * of the level that reads them (a site's base URL, for each of its 500 site spaces' URLs).
   */
  computed?: Readonly<Record<string, (joined: Sql) => Sql>>;
};

/**
 * A field of object type that the database can answer (URLs, permissions): each field of the object is
 * an expression of the row and of its joins, written in place (what several rows share, such as a site's
 * base URL, is a join's `computed` value). Used when the database writes the answer
 * (db/read-shapes.ts); the field's resolver still answers rows that are read as rows, so both must agree
 * (the differential test compares them).
 */
export type ObjectExpression = {
  fields: Readonly<Record<string, RowExpression>>;
  /** Set by `rankedObject`: the object depends on its row only through one integer (rankedObject). */
  rank?: { of: RowExpression; values: readonly number[] };
};

/**
 * A field of object type that depends on its row only through one integer `of` (a role's rank), among
 * `values`, and whose fields read nothing but `o.rank`: the database writes its answer once per value for
 * the whole statement, and each row takes the one of its rank (no subquery and no text per row).
 */
export const rankedObject = (of: RowExpression, values: readonly number[], fields: Readonly<Record<string, RowExpression>>): ObjectExpression => ({
  fields,
  rank: { of, values },
});

/**
 * A field of object type whose answer the database writes from rows read as shapes of the field's own
 * selection (a site's structure of sections, groups and site spaces). `shapes` names the types and where
 * their selections are below the field; `from` selects one row under the alias `o` for the row under
 * `row`, given those shapes (as answers, placed by the caller's rules); each field of the object is an
 * expression of `o` (JSON text for those in `json`). Where the database does not write the answer, the
 * field's resolver answers.
 */
export type ShapedObject = {
  shapes: readonly { type: string; path: readonly string[] }[];
  from: (row: Sql, shapes: readonly ShapeLike[], em: EntityManager) => Sql;
  fields: Readonly<Record<string, (o: Sql) => Sql>>;
  json?: readonly string[];
};

/** What a ShapedObject's `from` is given of each shape: how to place it on its rows (db/read-shapes.ts `Shape`). */
export type ShapeLike = {
  readonly place: (alias: string) => { readonly object: Sql; readonly joins: Sql; readonly ctes: readonly Sql[] };
  readonly answers: boolean;
  readonly nullsLeftOut: boolean;
};

export type ReadModel = {
  /** The GraphQL object type. */
  type: string;
  /** The MikroORM entity of its table, by class name. */
  entity: string;
  /** The property that identifies a row. */
  key: string;
  /** Properties every row carries, whatever is selected: those that code other than resolvers reads (guards, types of a union). */
  always?: readonly string[];
  /** For fields with a resolver: the properties it reads (none for a field that reads no column). */
  needs?: Readonly<Record<string, readonly string[]>>;
  /** Fields the database computes in the statement. */
  sql?: Readonly<Record<string, RowExpression>>;
  /** Fields of object type that the database answers when it writes the answer. */
  objects?: Readonly<Record<string, ObjectExpression>>;
  relations?: Readonly<Record<string, ManyRelation | OneRelation>>;
  /** List fields with page arguments that the database answers nested (only where it writes the answer). */
  pages?: Readonly<Record<string, PageRelation>>;
  /** Fields of object type answered from shapes of their own selection (only where the database writes the answer). */
  shaped?: Readonly<Record<string, ShapedObject>>;
  /** Rows that the model's SQL fields and objects read through `joined(name)`. */
  joins?: Readonly<Record<string, LevelJoin>>;
};

/** What another area adds to a type's read model: the fields it defines on the type. */
export type ReadModelExtension = { type: string; extends: true } & Pick<ReadModel, 'needs' | 'sql' | 'objects' | 'relations' | 'pages' | 'shaped' | 'joins'>;

/** Declares a read model (typed helper for the area's `reads.ts`). */
export const readModel = (model: ReadModel): ReadModel => model;

/** Declares what an area adds to another area's type (its fields on that type). */
export const readModelExtension = (extension: Omit<ReadModelExtension, 'extends'>): ReadModelExtension => ({ ...extension, extends: true });

/** The prefix of the JSON keys under which a row carries what was read along with it (relations, SQL fields), by response name. */
export const ALONG = '@';

/**
 * What the statement that read `row` read along with it for this field (by response name, so that two
 * aliases of one field each have theirs), or `absent` when it was not read along: the row came another
 * way, and the resolver reads it itself.
 */
export function readAlong<T, A>(row: object, info: GraphQLResolveInfo, absent: () => A): T | A {
  const key = ALONG + info.path.key;
  return key in row ? ((row as Record<string, unknown>)[key] as T) : absent();
}
