import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { raw } from 'sql-template-tag';
import { creationOrder } from './creation-order.js';
import { readPage } from './pages.js';
import { notFound } from '../kernel/errors.js';
import type { PageArgs } from '../kernel/pagination.js';

type OrganizationRow = { organization: string; createdAt: Date; id: string };

/**
 * The row of `entity` that `key` names (its id, or slug) in the organization; 404 naming `what` when
 * it belongs to another organization or none, so callers of one organization never learn of another's.
 */
export async function rowOfOrganization<Row extends OrganizationRow>(
  em: EntityManager,
  entity: EntityName<Row>,
  organizationId: string,
  key: Partial<Row>,
  what: string,
): Promise<Row> {
  const row = await em.findOne(entity, { ...key, organization: organizationId });
  if (!row) throw notFound(what);
  return row;
}

/** The organization's rows of `entity` (table alias `alias`), oldest first; one page read in SQL. */
export function pageOfOrganization<Row extends OrganizationRow>(
  em: EntityManager,
  entity: EntityName<Row>,
  alias: string,
  organizationId: string,
  args: PageArgs,
) {
  return readPage(em, { entity, alias, where: sql`${raw(alias)}.organization_id = ${organizationId}`, order: creationOrder<Row>(alias) }, args);
}
