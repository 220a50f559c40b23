import { Migration } from '@mikro-orm/migrations';

/**
 * A change request's revisions by their change request (the current client's
 * getContributorsByChangeRequestId counts each contributor's edits): one change request's revisions are
 * read through this index instead of every revision of its space.
 */
export class Migration20261230163000 extends Migration {
  override name = 'Migration20261230163000';

  override up(): void | Promise<void> {
    this.addSql(`create index "revision_change_request_index" on "revision" ("change_request")`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "revision_change_request_index"`);
  }
}
