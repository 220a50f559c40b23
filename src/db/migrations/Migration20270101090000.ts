import { Migration } from '@mikro-orm/migrations';

/**
 * Sites by custom hostname: resolving a published URL (0.202.0's `urls` operations) finds the site of
 * a URL's host through this index.
 */
export class Migration20270101090000 extends Migration {
  override name = 'Migration20270101090000';

  override up(): void | Promise<void> {
    this.addSql(`create index "site_hostname_index" on "site" ("hostname")`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "site_hostname_index"`);
  }
}
