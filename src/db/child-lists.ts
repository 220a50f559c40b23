import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { raw } from 'sql-template-tag';
import type { PageRelation } from '../kernel/read-models.js';
import { keptCount, countsStatement, type Counter } from './row-counts.js';
import { pageLoader, type SortKey } from './pages.js';
import { tableOf } from './statements.js';

/** A part of a child list's order: a column of its rows, and the property a cursor reads it from. */
export type ChildOrderKey<T> = {
  column: string;
  property: keyof T & string;
  desc?: boolean;
  /** A text array (a key the database keeps, such as a navigation key). */
  array?: boolean;
  /** The property is not one the entity's plain rows carry (a lazy column): read beside the row. */
  lazy?: boolean;
};

/**
 * A list of the rows of a table that belong to a parent (their `parent` column holds its key), in an
 * order whose last key makes it total, with its exact size (the count the database keeps under
 * `counter`, else a count). Declared once, it is read two ways that therefore cannot disagree: a page
 * loader for the list field's resolver (`childPageLoader`) and a `pages` declaration of the parent's
 * read model for answers the database writes (`childPages`).
 */
export type ChildList<T> = {
  entity: EntityName<T>;
  /** The GraphQL type of its items (a read model's). */
  type: string;
  parent: string;
  order: readonly ChildOrderKey<T>[];
  counter?: Counter;
};

/** The list as pages of many parents at once, for its field's resolver (db/pages.ts). */
export function childPageLoader<T extends object>(em: EntityManager, list: ChildList<T>) {
  const order: SortKey<T>[] = list.order.map((key) => ({
    sql: `x.${key.column}`,
    desc: key.desc,
    array: key.array,
    of: (row) => row[key.property] as string | number | Date | readonly string[],
  }));
  const extra = Object.fromEntries(list.order.filter((key) => key.lazy).map((key) => [key.property, `x.${key.column}`]));
  const { counter } = list;
  return pageLoader(
    em,
    (parentId: string) => parentId,
    () =>
      Promise.resolve({
        entity: list.entity,
        alias: 'x',
        partition: `x.${list.parent}`,
        where: sql`true`,
        order,
        extra,
        counts: counter ? (keys: readonly string[]) => countsStatement(counter, keys) : undefined,
      }),
  );
}

/** The list as a `pages` declaration of its parent's read model (kernel/read-models.ts PageRelation). */
export function childPages<T>(list: ChildList<T>): PageRelation {
  const parentColumn = raw(list.parent);
  return {
    many: list.type,
    list: (item, parent, em) => ({
      where: sql`${item}.${parentColumn} = ${parent}`,
      order: list.order.map((key) => ({ sql: sql`${item}.${raw(key.column)}`, desc: key.desc, array: key.array })),
      count: list.counter
        ? keptCount(list.counter, parent)
        : sql`(select count(*) from ${tableOf(em, list.entity as never)} counted where counted.${parentColumn} = ${parent})`,
    }),
  };
}
