import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import type { ContentReach, Policy } from '../../kernel/policy.js';
import { visibleContent } from '../../auth/visibility.js';
import { readRows, tableOf } from '../../db/statements.js';
import { batchLoader } from '../../kernel/loader.js';
import { Space } from '../spaces/index.js';
import { splitMemberKey } from '../../kernel/member-keys.js';

/**
 * How many live spaces each member of a page can access, of those the viewer can see (Member.spaces),
 * in two statements whatever the number of members and spaces: members whose access comes from their
 * role alone share their organization's two totals (all the viewer sees; what the default-level chain
 * opens to non-guests), and members whose grants reach further add what those grants alone reach
 * (through the indexes on space ids and ancestors), counted once per distinct set of grants.
 */
export function memberSpaceCounts(em: EntityManager, policy: Policy) {
  return batchLoader(async (keys: string[]): Promise<number[]> => {
    const members = keys.map(splitMemberKey);
    const organizations = [...new Set(members.map((m) => m.organizationId))];
    const [seen, reaches] = await Promise.all([
      policy.contentReach(organizations),
      Promise.all(members.map((m) => policy.forUser(m.userId).contentReach([m.organizationId]))),
    ]);
    const visible = visibleContent(seen, 'space', 's');
    const space = tableOf(em, Space);

    // Grants reaching further than the role: one count per distinct set (a team's members share theirs).
    const signatures = new Map<string, { key: string; organization: string; byDefault: boolean; spaces: string[]; collections: string[] }>();
    const signatureOf = members.map((member, i) => {
      const reach = reaches[i];
      if (!hasGrants(reach)) return undefined;
      const signature = {
        organization: member.organizationId,
        byDefault: reach.byDefault.length > 0,
        spaces: [...reach.spaces].sort(),
        collections: [...reach.collections].sort(),
      };
      const key = JSON.stringify(signature);
      if (!signatures.has(key)) signatures.set(key, { key, ...signature });
      return key;
    });

    const totals = sql`select s.organization_id as "organization", count(*) filter (where ${visible}) as "all",
      count(*) filter (where ${visible} and s.access_level <> 'none') as "byDefault"
      from ${space} s where s.organization_id = any(${organizations}::text[]) and s.deleted_at is null group by 1`;
    const extras = sql`select g.key as "key", (select count(*) from ${space} s
        where s.organization_id = g.organization and s.deleted_at is null and ${visible}
        and not (g.by_default and s.access_level <> 'none') and (s.id = any(g.spaces) or s.ancestors && g.collections)) as "count"
      from jsonb_to_recordset(${JSON.stringify([...signatures.values()].map((s) => ({ key: s.key, organization: s.organization, by_default: s.byDefault, spaces: s.spaces, collections: s.collections })))}::jsonb)
        as g(key text, organization text, by_default boolean, spaces text[], collections text[])`;
    const [totalRows, extraRows] = await Promise.all([
      readRows<{ organization: string; all: string; byDefault: string }>(em, totals),
      signatures.size ? readRows<{ key: string; count: string }>(em, extras) : [],
    ]);
    const totalsOf = new Map(totalRows.map((row) => [row.organization, { all: Number(row.all), byDefault: Number(row.byDefault) }]));
    const extraOf = new Map(extraRows.map((row) => [row.key, Number(row.count)]));

    return members.map((member, i) => {
      const reach = reaches[i];
      const total = totalsOf.get(member.organizationId) ?? { all: 0, byDefault: 0 };
      if (reach.everything.length) return total.all;
      const byRole = reach.byDefault.length ? total.byDefault : 0;
      return byRole + (signatureOf[i] ? extraOf.get(signatureOf[i])! : 0);
    });
  });
}

const hasGrants = (reach: ContentReach) => reach.spaces.length > 0 || reach.collections.length > 0;

declare module '../../kernel/request-lists.js' {
  interface Lists {
    memberSpaceCounts: ReturnType<typeof memberSpaceCounts>;
  }
}
