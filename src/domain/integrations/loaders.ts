import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '@mikro-orm/core';
import { batchLoader, groupLoader, Loader, rowLoader } from '../common/loader.js';
import { Organization, type OrganizationRow } from '../organizations/entities.js';
import { Space } from '../spaces/entities.js';
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
    /** Selected spaces and sites of each installation. */
    spaceSelectionsByInstallation: groupLoader(
      (ids: string[]) => em.find(IntegrationSpaceInstallation, { installation: { $in: ids } }),
      (s) => s.installation,
    ),
    siteSelectionsByInstallation: groupLoader((ids: string[]) => em.find(IntegrationSiteInstallation, { installation: { $in: ids } }), (s) => s.installation),
    /**
     * How many live spaces each installation works on: all of its organization's, or its selected ones.
     * Two grouped counts per batch, whatever the number of installations.
     */
    installationSpaceCount: batchLoader(async (ids: string[]) => {
      const installations = await em.find(IntegrationInstallation, { id: { $in: ids } }, { fields: ['id', 'organization', 'spaceSelection'] });
      const byId = new Map(installations.map((i) => [i.id, i]));
      const organizations = [...new Set(installations.filter((i) => i.spaceSelection === 'all').map((i) => i.organization))];
      const everySpace: { organization: string; count: string | number }[] = organizations.length
        ? await em
            .createQueryBuilder(Space)
            .select(['organization', sql`count(*)`.as('count')])
            .where({ organization: { $in: organizations }, deletedAt: null })
            .groupBy('organization')
            .execute('all', true)
        : [];
      const selected: { installation: string; count: string | number }[] = await em
        .createQueryBuilder(IntegrationSpaceInstallation, 'x')
        .select(['installation', sql`count(*)`.as('count')])
        .where({ installation: { $in: ids } })
        // Deleted spaces (restorable for a while) and spaces transferred to another organization are not worked on.
        .andWhere('x.space_id in (select s.id from space s where s.deleted_at is null and s.organization_id = x.organization_id)')
        .groupBy('installation')
        .execute('all', true);
      const perOrganization = new Map(everySpace.map((r) => [r.organization, Number(r.count)]));
      const perInstallation = new Map(selected.map((r) => [r.installation, Number(r.count)]));
      return ids.map((id) => {
        const installation = byId.get(id);
        if (!installation) return 0;
        return installation.spaceSelection === 'all' ? (perOrganization.get(installation.organization) ?? 0) : (perInstallation.get(id) ?? 0);
      });
    }),
  };
}

declare module '../common/request-loaders.js' {
  interface Loaders extends ReturnType<typeof integrationLoaders> {}
}
