import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { type Sql } from 'sql-template-tag';
import { lsnOf, replicaSetOf, type Replica } from './replicas.js';

/*
 * Which connection a request's plain reads (statements.ts `readRows`) run on. Every read runs on the
 * primary unless its request's EntityManager was opened to the replicas (`readFromReplicas`: a query,
 * not a mutation), and then only until it writes, and only on a replica that has replayed past the
 * user's last write, wherever that write was made (the `read_position` table, read with the token).
 * What the ORM reads (em.find: what changes build on) and what decides access at once (the token,
 * the viewer's memberships: `readCurrentRows`) always run on the primary. docs/scaling.md.
 */

type Routing = {
  /** The user's last write position (null: none known, or no user). */
  position: bigint | null;
  /** Whether reads may go to a replica (a query's EntityManager). */
  open: boolean;
  /** Whether this EntityManager has committed a write: its reads then stay on the primary. */
  wrote: boolean;
};

const routings = new WeakMap<EntityManager, Routing>();

function routingOf(em: EntityManager): Routing {
  let routing = routings.get(em);
  if (!routing) routings.set(em, (routing = { position: null, open: false, wrote: false }));
  return routing;
}

/** `, (select …) as "readPosition"`: the user's (alias `u`) last write position, for the token's statement; empty without replicas. */
export function readPositionColumn(em: EntityManager): Sql {
  return replicaSetOf(em) ? sql`, (select p.lsn::text from read_position p where p.user_id = u.id) as "readPosition"` : sql``;
}

/** Notes the user's last write position, as read with the token. */
export function noteReadPosition(em: EntityManager, position: string | null | undefined): void {
  if (position) routingOf(em).position = lsnOf(position);
}

/** Lets the reads of `em` (a query's) go to a replica that is safe for them. */
export function readFromReplicas(em: EntityManager): void {
  if (replicaSetOf(em)) routingOf(em).open = true;
}

/** Notes that `em` committed a write (its later reads stay on the primary; its user's position moves on). */
export function noteCommittedWrite(em: EntityManager): void {
  if (replicaSetOf(em)) routingOf(em).wrote = true;
}

/** The replica a plain read of `em` runs on, or undefined for the primary. */
export function replicaFor(em: EntityManager): Replica | undefined {
  const routing = routings.get(em);
  if (!routing?.open || routing.wrote) return undefined;
  return replicaSetOf(em)?.pick(routing.position);
}

/**
 * After a request: when it wrote, records where the primary's log stands now (past its commits) as the
 * user's read position, so that their next reads, on any instance, wait for a replica that has it.
 * Concurrent writes of one user keep the furthest position.
 */
export function readPositionToRecord(em: EntityManager, userId: string | undefined): Sql | undefined {
  if (!userId || !routings.get(em)?.wrote) return undefined;
  return sql`insert into read_position (user_id, lsn) values (${userId}, pg_current_wal_lsn())
    on conflict (user_id) do update set lsn = greatest(read_position.lsn, excluded.lsn)`;
}
