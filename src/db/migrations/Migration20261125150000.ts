import { Migration } from '@mikro-orm/migrations';

/**
 * The order of an organization's top level, for placing a collection or space from its neighbours
 * (`order by position desc limit 1`): the (organization_id, parent_id, position) indexes give the
 * order under a collection, but a `parent_id is null` condition leaves the planner sorting every
 * top-level row instead.
 */
export class Migration20261125150000 extends Migration {
  override name = 'Migration20261125150000';

  override up(): void | Promise<void> {
    this.addSql(`create index "space_top_level_position_index" on "space" ("organization_id", "position") where parent_id is null`);
    this.addSql(`create index "collection_top_level_position_index" on "collection" ("organization_id", "position") where parent_id is null`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "space_top_level_position_index"`);
    this.addSql(`drop index "collection_top_level_position_index"`);
  }
}
