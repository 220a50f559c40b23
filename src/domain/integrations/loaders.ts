import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { columnOf, countsByKey, tableOf } from '../../db/statements.js';
import { batchLoader, groupLoader, Loader, rowLoader } from '../../kernel/loader.js';
import { Organization, type OrganizationRow } from '../organizations/index.js';
import { Space } from '../spaces/index.js';
import { Integration, IntegrationInstallation, IntegrationSiteInstallation, IntegrationSpaceInstallation, type IntegrationRow } from './entities.js';

export function integrationLoaders(em: EntityManager) {
  return {
    /** An integration by name, without its script and secrets (never shown). */
    integration: rowLoader(
      (names: string[]) => em.find(Integration, { name: { $in: names } }, { exclude: ['script', 'secrets'] }) as Promise<IntegrationRow[]>,
      (i) => i.name,
    ),
    /** An organization by id, else by its subdomain (hostname): how a publish names its organization. */
    organizationByIdOrSubdomain: new Loader<string, OrganizationRow | null>(async (keys) => {
      const rows = await em.find(Organization, { $or: [{ id: { $in: [...keys] } }, { hostname: { $in: [...keys] } }] });
      return keys.map((key) => rows.find((o) => o.id === key) ?? rows.find((o) => o.hostname === key) ?? null);
    }),
    /** An installation by its id. */
    installationById: rowLoader(
      (ids: string[]) => em.find(IntegrationInstallation, { id: { $in: ids } }),
      (i) => i.id,
    ),
    /** Selected spaces and sites of each installation. */
    spaceSelectionsByInstallation: groupLoader(
      (ids: string[]) => em.find(IntegrationSpaceInstallation, { installation: { $in: ids } }),
      (s) => s.installation,
    ),
    siteSelectionsByInstallation: groupLoader(
      (ids: string[]) => em.find(IntegrationSiteInstallation, { installation: { $in: ids } }),
      (s) => s.installation,
    ),
    /**
     * How many live spaces each installation works on: all of its organization's, or its selected ones.
     * Two grouped counts per batch, whatever the number of installations.
     */
    installationSpaceCount: batchLoader(async (ids: string[]) => {
      const installations = await em.find(IntegrationInstallation, { id: { $in: ids } }, { fields: ['id', 'organization', 'spaceSelection'] });
      const byId = new Map(installations.map((i) => [i.id, i]));
      const organizations = [...new Set(installations.filter((i) => i.spaceSelection === 'all').map((i) => i.organization))];
      const space = (property: string) => columnOf(em, Space, property);
      const selection = (property: string) => sql`x.${columnOf(em, IntegrationSpaceInstallation, property)}`;
      const perOrganization = organizations.length
        ? await countsByKey(
            em,
            sql`select ${space('organization')} as "key", count(*) as "n" from ${tableOf(em, Space)} where ${space('organization')} = any(${organizations}) and ${space('deletedAt')} is null group by 1`,
          )
        : new Map<string, number>();
      // Deleted spaces (restorable for a while) and spaces transferred to another organization are not worked on.
      const perInstallation = await countsByKey(
        em,
        sql`select ${selection('installation')} as "key", count(*) as "n" from ${tableOf(em, IntegrationSpaceInstallation)} x where ${selection('installation')} = any(${ids})
          and ${selection('space')} in (select s.id from ${tableOf(em, Space)} s where s.${space('deletedAt')} is null and s.${space('organization')} = ${selection('organization')}) group by 1`,
      );
      return ids.map((id) => {
        const installation = byId.get(id);
        if (!installation) return 0;
        return installation.spaceSelection === 'all' ? (perOrganization.get(installation.organization) ?? 0) : (perInstallation.get(id) ?? 0);
      });
    }),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof integrationLoaders> {}
}
