import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { empty, join, raw, type Sql } from 'sql-template-tag';
import { execute, executeReturning, tableOf } from '../../db/statements.js';
import { badRequest } from '../../kernel/errors.js';
import { byPosition, keyBetween, keysBetween, type Ordered } from '../../kernel/ordering.js';
import { Organization } from '../organizations/index.js';
import { Space } from '../spaces/index.js';
import { Collection } from './entities.js';

/*
 * Positions of collections and spaces, which share one sibling order under each parent (a collection,
 * or an organization's top level). A new place is computed from the neighbours only (indexed reads on
 * (organization_id, parent_id, position)), never from the list of all siblings, and under a lock that
 * serializes placements under one parent: concurrent creations and moves, from any instance, see each
 * other's positions instead of computing the same one.
 */

/** A sibling reference of the contract's position object. */
export type ContentPointer = { type: string; space?: string | null; collection?: string | null };
export type ContentPosition = { before?: ContentPointer | null; after?: ContentPointer | null };

type SiblingType = 'collection' | 'space';
type Parent = { organizationId: string; parentId: string | null };

function pointerId(pointer: ContentPointer, field: string): string {
  const id = pointer.type === 'space' ? pointer.space : pointer.type === 'collection' ? pointer.collection : undefined;
  if (pointer.type !== 'space' && pointer.type !== 'collection') throw badRequest(`${field}.type: must be "space" or "collection"`);
  if (!id) throw badRequest(`${field}.${pointer.type}: is required`);
  return id;
}

/** The children of a parent in one table: the table and the conditions that select them. */
function childrenIn(table: Sql, { organizationId, parentId }: Parent): Sql {
  return parentId === null
    ? sql`${table} where organization_id = ${organizationId} and parent_id is null`
    : sql`${table} where organization_id = ${organizationId} and parent_id = ${parentId}`;
}

/**
 * The children of a parent, collections and spaces (deleted spaces included: a key next to one of them
 * is as good as any, and leaving them out would cost a read per deleted row), as one derived table `s`
 * (id, position, type, deleted); conditions put on `s` reach each table's index on (organization_id,
 * parent_id, position).
 */
function children(em: EntityManager, parent: Parent): Sql {
  const collections = childrenIn(tableOf(em, Collection), parent);
  const spaces = childrenIn(tableOf(em, Space), parent);
  return sql`(select id, position, 'collection' as type, false as deleted from ${collections}
      union all select id, position, 'space' as type, deleted_at is not null as deleted from ${spaces}) s`;
}

/**
 * The nearest position among the children before `position` (or after it; or the last one when
 * `position` is null), leaving out the moving item: one `order by position … limit 1` read of each
 * table's index (over a union, the planner would sort every child instead).
 */
function nearest(em: EntityManager, parent: Parent, side: 'before' | 'after', position: string | null, movingId: string): Sql {
  const reads = [Collection, Space].map((entity) => {
    const table = childrenIn(tableOf(em, entity), parent);
    const bound = position === null ? empty : sql` and position ${raw(side === 'before' ? '<' : '>')} ${position}`;
    return sql`(select position from ${table}${bound} and id <> ${movingId} order by position ${raw(side === 'before' ? 'desc' : 'asc')} limit 1)`;
  });
  // greatest() and least() skip nulls: a table without such a child does not count.
  return sql`${raw(side === 'before' ? 'greatest' : 'least')}(${join(reads, ', ')})`;
}

/**
 * Takes the placement lock of a parent for the rest of the transaction: the parent collection's row,
 * or the organization's at the top level. FOR NO KEY UPDATE, so that rows referring to it (a space
 * created inside, any row of the organization) can still be written meanwhile.
 */
async function lockParent(em: EntityManager, { organizationId, parentId }: Parent): Promise<void> {
  const rows = parentId
    ? await executeReturning(
        em,
        sql`select id from ${tableOf(em, Collection)} where id = ${parentId} and organization_id = ${organizationId} for no key update`,
      )
    : await executeReturning(em, sql`select id from ${tableOf(em, Organization)} where id = ${organizationId} for no key update`);
  if (rows.length === 0) throw badRequest(parentId ? `parent: no collection "${parentId}" in this organization` : 'organization: does not exist');
}

/** The position of a live child of the parent, or a 400 naming the pointer. */
async function pointedPosition(em: EntityManager, parent: Parent, pointer: ContentPointer, field: string, movingId: string | undefined) {
  const id = pointerId(pointer, field);
  const type = pointer.type as SiblingType;
  const table = tableOf(em, type === 'space' ? Space : Collection);
  const statement = sql`select position, parent_id as parent, organization_id as organization, ${raw(type === 'space' ? 'deleted_at is not null' : 'false')} as deleted from ${table} where id = ${id}`;
  const [row] =
    id === movingId
      ? []
      : await em.execute<{ position: string; parent: string | null; organization: string; deleted: boolean }[]>(statement.sql, statement.values);
  if (!row || row.organization !== parent.organizationId || (row.parent ?? null) !== parent.parentId || row.deleted) {
    throw badRequest(`${field}: ${pointer.type} "${id}" is not a sibling in the target parent`);
  }
  return { id, type, position: row.position };
}

type Neighbours = { previous: string | null; next: string | null; ties: [string, SiblingType][] };

/**
 * The positions either side of `position` (the nearest different ones) and the children that hold
 * `position` itself, leaving out the item being moved.
 */
async function neighboursOf(em: EntityManager, parent: Parent, position: string, movingId: string): Promise<Neighbours> {
  const previous = nearest(em, parent, 'before', position, movingId);
  const next = nearest(em, parent, 'after', position, movingId);
  const s = children(em, parent);
  const statement = sql`select ${previous} as previous, ${next} as next,
      (select json_agg(json_build_array(id, type)) from ${s} where position = ${position} and id <> ${movingId}) as ties`;
  const [row] = await em.execute<{ previous: string | null; next: string | null; ties: [string, SiblingType][] | string | null }[]>(
    statement.sql,
    statement.values,
  );
  const ties = typeof row.ties === 'string' ? JSON.parse(row.ties) : (row.ties ?? []);
  return { previous: row.previous, next: row.next, ties };
}

/**
 * Gives children that share a position (written before placements were serialized) distinct keys
 * between the neighbouring positions, in the order they are shown in (by id), and returns them in
 * that order with their new keys. Only that run of equal positions changes.
 */
async function separate(em: EntityManager, { previous, next, ties }: Neighbours, position: string): Promise<Ordered[]> {
  const run = ties.map(([id, type]) => ({ id, type, position })).sort(byPosition);
  const keys = keysBetween(previous, next, run.length);
  for (const [i, child] of run.entries()) {
    await execute(em, sql`update ${tableOf(em, child.type === 'space' ? Space : Collection)} set position = ${keys[i]} where id = ${child.id}`);
  }
  return run.map((child, i) => ({ id: child.id, position: keys[i] }));
}

/** The key just before (or after) a child of the parent, from its neighbours only. */
async function nextTo(em: EntityManager, parent: Parent, pointed: Ordered, side: 'before' | 'after', movingId: string): Promise<string> {
  const neighbours = await neighboursOf(em, parent, pointed.position, movingId);
  let { previous, next } = neighbours;
  let own = pointed.position;
  if (neighbours.ties.length > 1) {
    // No key fits between equal positions: the run gets distinct ones first, so that the item can go
    // right next to the pointed child rather than beyond the whole run.
    const run = await separate(em, neighbours, pointed.position);
    const index = run.findIndex((child) => child.id === pointed.id);
    own = run[index].position;
    previous = run[index - 1]?.position ?? previous;
    next = run[index + 1]?.position ?? next;
  }
  return side === 'before' ? keyBetween(previous, own) : keyBetween(own, next);
}

/**
 * True when no live child other than the moving one sits between `after` and `before` in the order
 * children are shown in (position, then id).
 */
async function adjacent(em: EntityManager, parent: Parent, after: Ordered, before: Ordered, movingId: string): Promise<boolean> {
  if (byPosition(after, before) >= 0) return false;
  const s = children(em, parent);
  const statement = sql`select
      exists(select 1 from ${s} where position > ${after.position} and position < ${before.position} and not deleted and id <> ${movingId}) as inside,
      (select json_agg(json_build_array(id, position)) from ${s} where position in (${after.position}, ${before.position}) and not deleted and id <> ${movingId}) as ends`;
  const [row] = await em.execute<{ inside: boolean; ends: [string, string][] | string | null }[]>(statement.sql, statement.values);
  if (row.inside) return false;
  const ends: [string, string][] = typeof row.ends === 'string' ? JSON.parse(row.ends) : (row.ends ?? []);
  return !ends.some(([id, position]) => byPosition(after, { id, position }) < 0 && byPosition({ id, position }, before) < 0);
}

/**
 * The ordering key for an item placed under `parentId` (null: the organization's top level): at the
 * end by default, or just before / after a sibling named by the position object. Runs inside the
 * transaction that writes the item, whose placement lock it takes first; keep that transaction short
 * (the embedded database is one connection).
 */
export async function positionIn(
  em: EntityManager,
  organizationId: string,
  parentId: string | null,
  position: ContentPosition | null | undefined,
  movingId?: string,
): Promise<string> {
  if (!em.isInTransaction()) throw new Error('positionIn runs inside the transaction that writes the position');
  const parent = { organizationId, parentId };
  await lockParent(em, parent);
  const moving = movingId ?? '';
  const after = position?.after ? await pointedPosition(em, parent, position.after, 'position.after', movingId) : undefined;
  const before = position?.before ? await pointedPosition(em, parent, position.before, 'position.before', movingId) : undefined;
  if (after && before && !(await adjacent(em, parent, after, before, moving))) {
    throw badRequest('position: "after" and "before" must be adjacent siblings, in that order');
  }
  // Between two adjacent siblings is just before the second one.
  if (before) return nextTo(em, parent, before, 'before', moving);
  if (after) return nextTo(em, parent, after, 'after', moving);
  const last = nearest(em, parent, 'before', null, moving);
  const statement = sql`select ${last} as position`;
  const [row] = await em.execute<{ position: string | null }[]>(statement.sql, statement.values);
  return keyBetween(row.position, null);
}
