import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { readRows, tableOf } from '../../db/statements.js';
import { batchLoader, rowLoader } from '../../kernel/loader.js';
import { Member } from '../organizations/index.js';
import { Site } from '../sites/index.js';
import { byMemberKeys } from '../../kernel/member-keys.js';

export function memberLoaders(em: EntityManager) {
  return {
    /** A user's membership of an organization, by member key (null when not a member). */
    membership: rowLoader(...byMemberKeys(em, Member)),
    /** How many sites each organization has, in one grouped statement for the batch (through the index on organizations). */
    organizationSiteCount: batchLoader(async (organizationIds: string[]) => {
      const rows = await readRows<{ organization: string; count: string | number }>(
        em,
        sql`select s.organization_id as "organization", count(*) as "count" from ${tableOf(em, Site)} s where s.organization_id = any(${organizationIds}::text[]) group by 1`,
      );
      const counts = new Map(rows.map((row) => [row.organization, Number(row.count)]));
      return organizationIds.map((id) => counts.get(id) ?? 0);
    }),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof memberLoaders> {}
}
