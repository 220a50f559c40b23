import { Migration } from '@mikro-orm/migrations';

/**
 * An organization's change requests, newest first by update or by creation (the current client's
 * listChangeRequestsForOrganization): a page reads the index in order from the organization's newest,
 * whatever the number of its change requests.
 */
export class Migration20261229090000 extends Migration {
  override name = 'Migration20261229090000';

  override up(): void | Promise<void> {
    this.addSql(`create index "change_request_organization_id_updated_at_id_index" on "change_request" ("organization_id", "updated_at", "id")`);
    this.addSql(`create index "change_request_organization_id_created_at_id_index" on "change_request" ("organization_id", "created_at", "id")`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "change_request_organization_id_updated_at_id_index"`);
    this.addSql(`drop index "change_request_organization_id_created_at_id_index"`);
  }
}
