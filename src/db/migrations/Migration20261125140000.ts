import { Migration } from '@mikro-orm/migrations';

/**
 * Open-comment counts by space (a site's tree, space lists) reach only the open comments through an
 * index: `space_id = any(…) and status = 'open'` (and `change_request_id is null` for a space's own
 * discussion) are all conditions of this index, where the older (space_id, change_request_id) one
 * had every resolved comment read and filtered.
 */
export class Migration20261125140000 extends Migration {
  override name = 'Migration20261125140000';

  override up(): void | Promise<void> {
    this.addSql(`create index "comment_space_id_status_change_request_id_index" on "comment" ("space_id", "status", "change_request_id")`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "comment_space_id_status_change_request_id_index"`);
  }
}
