import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes that serve each list's page in SQL: equality on the list's parent (and filter), then its sort
 * key ending in the tie-break, so that `order by … limit` walks the index from the cursor and never
 * sorts the parent's rows, and the count is a range of the same index.
 */
export class Migration20261124140000 extends Migration {
  override name = 'Migration20261124140000';

  override up(): void | Promise<void> {
    // Change requests of a space with a status, newest first (also serves the counts by space and status).
    this.addSql(`create index "change_request_space_id_status_number_index" on "change_request" ("space_id", "status", "number")`);
    this.addSql(`drop index "change_request_space_id_status_index"`);
    // Comments of a change request; a space's own comments (those of no change request).
    this.addSql(`create index "comment_change_request_id_posted_at_id_index" on "comment" ("change_request_id", "posted_at", "id")`);
    this.addSql(`create index "comment_space_id_posted_at_id_index" on "comment" ("space_id", "posted_at", "id") where "change_request_id" is null`);
    this.addSql(`create index "comment_reply_comment_id_posted_at_id_index" on "comment_reply" ("comment_id", "posted_at", "id")`);
    this.addSql(`drop index "comment_reply_comment_id_index"`);
    this.addSql(`create index "team_member_team_id_added_at_user_id_index" on "team_member" ("team_id", "added_at", "user_id")`);
    this.addSql(`create index "member_organization_id_joined_at_user_id_index" on "member" ("organization_id", "joined_at", "user_id")`);
    this.addSql(`create index "member_organization_id_last_seen_at_user_id_index" on "member" ("organization_id", "last_seen_at", "user_id")`);
    this.addSql(`create index "content_grant_space_id_created_at_id_index" on "content_grant" ("space_id", "created_at", "id")`);
    this.addSql(`create index "content_grant_collection_id_created_at_id_index" on "content_grant" ("collection_id", "created_at", "id")`);
    this.addSql(`create index "share_link_site_id_created_at_id_index" on "share_link" ("site_id", "created_at", "id")`);
    this.addSql(`drop index "share_link_site_id_created_at_index"`);
    this.addSql(
      `create index "integration_installation_integration_name_created_at_id_index" on "integration_installation" ("integration_name", "created_at", "id")`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "integration_installation_integration_name_created_at_id_index"`);
    this.addSql(`create index "share_link_site_id_created_at_index" on "share_link" ("site_id", "created_at")`);
    this.addSql(`drop index "share_link_site_id_created_at_id_index"`);
    this.addSql(`drop index "content_grant_collection_id_created_at_id_index"`);
    this.addSql(`drop index "content_grant_space_id_created_at_id_index"`);
    this.addSql(`drop index "member_organization_id_last_seen_at_user_id_index"`);
    this.addSql(`drop index "member_organization_id_joined_at_user_id_index"`);
    this.addSql(`drop index "team_member_team_id_added_at_user_id_index"`);
    this.addSql(`create index "comment_reply_comment_id_index" on "comment_reply" ("comment_id")`);
    this.addSql(`drop index "comment_reply_comment_id_posted_at_id_index"`);
    this.addSql(`drop index "comment_space_id_posted_at_id_index"`);
    this.addSql(`drop index "comment_change_request_id_posted_at_id_index"`);
    this.addSql(`create index "change_request_space_id_status_index" on "change_request" ("space_id", "status")`);
    this.addSql(`drop index "change_request_space_id_status_number_index"`);
  }
}
