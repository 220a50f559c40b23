import { Migration } from '@mikro-orm/migrations';

/**
 * An integration's installation on one space or site keeps a configuration and external ids of its own
 * (the current client's IntegrationSpaceInstallation and IntegrationSiteInstallation), with its times.
 * The rows there were selections only: each gets an empty configuration, no external ids, and the
 * migration's time.
 */
export class Migration20261230191000 extends Migration {
  override name = 'Migration20261230191000';

  override up(): void | Promise<void> {
    for (const table of ['integration_space_installation', 'integration_site_installation']) {
      this.addSql(`alter table "${table}" add column "configuration" jsonb not null default '{}', add column "external_ids" jsonb not null default '[]',
        add column "created_at" timestamptz not null default now(), add column "updated_at" timestamptz not null default now()`);
      this.addSql(`alter table "${table}" alter column "configuration" drop default, alter column "external_ids" drop default,
        alter column "created_at" drop default, alter column "updated_at" drop default`);
    }
  }

  override down(): void | Promise<void> {
    for (const table of ['integration_space_installation', 'integration_site_installation']) {
      this.addSql(`alter table "${table}" drop column "configuration", drop column "external_ids", drop column "created_at", drop column "updated_at"`);
    }
  }
}
