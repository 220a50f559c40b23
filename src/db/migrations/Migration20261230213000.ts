import { Migration } from '@mikro-orm/migrations';

/**
 * Search results carry their page's description and ancestors (the current client's SearchPageResult):
 * the index keeps both with each section. Rows indexed before have neither, so every indexed space is
 * marked stale: the job or the next search of its organization rebuilds it from its main revision.
 */
export class Migration20261230213000 extends Migration {
  override name = 'Migration20261230213000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "search_section" add column "page_description" text not null default '', add column "page_ancestors" jsonb not null default '[]'`);
    this.addSql(`alter table "search_section" alter column "page_description" drop default, alter column "page_ancestors" drop default`);
    this.addSql(`update "search_indexed_space" set "stale" = true`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "search_section" drop column "page_description", drop column "page_ancestors"`);
  }
}
