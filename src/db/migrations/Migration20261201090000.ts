import { isDeepStrictEqual } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Migration } from '@mikro-orm/migrations';
// The content tree code as of this migration, frozen beside it (never the live src/domain/content).
import {
  arrange,
  entriesByRevision,
  manifestOf,
  queryIn,
  storeObjects,
  treeOf,
  WALK_TREES,
  WALKED_ENTRIES,
  type EntryTuple,
  type FileEntry,
  type Owner,
  type PageEntry,
  type TreeEntry,
  type TreeNode,
} from './Migration20261201090000/content-trees.js';

/** Revisions converted per statement. */
const BATCH = 200;

/**
 * Revisions share what did not change: each revision's manifest (every page's place and version,
 * every file's version, copied whole into each revision's row) becomes a content-addressed tree
 * (Migration20261201090000/content-trees.ts, a frozen copy of src/domain/content/tree.ts) whose
 * entries and nodes are stored once per space and shared between revisions. Every revision is
 * converted, space by space, and reads the same afterwards: pages in the same tree order with the same
 * slugs and paths (derived again on reading, as they were when written), files in the same order.
 * `down` writes every revision's manifest back into its row.
 */
export class Migration20261201090000 extends Migration {
  override name = 'Migration20261201090000';

  override async up(): Promise<void> {
    await this.execute(
      `create table "content_entry" ("hash" varchar(255) not null, "organization_id" varchar(255) not null, "space_id" varchar(255) not null, "kind" varchar(255) not null, "item" varchar(255) not null, "version" varchar(255) not null, "parent" varchar(255) null, "position" varchar(255) null, "name" varchar(255) null, "ordinal" int null, primary key ("hash"))`,
    );
    await this.execute(`create index "content_entry_space_id_index" on "content_entry" ("space_id")`);
    await this.execute(
      `create table "content_node" ("hash" varchar(255) not null, "organization_id" varchar(255) not null, "space_id" varchar(255) not null, "entries" text[] null, "children" text[] null, primary key ("hash"))`,
    );
    await this.execute(`create index "content_node_space_id_index" on "content_node" ("space_id")`);
    for (const table of ['content_entry', 'content_node']) {
      await this.execute(
        `alter table "${table}" add constraint "${table}_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
      );
      await this.execute(
        `alter table "${table}" add constraint "${table}_space_id_foreign" foreign key ("space_id") references "space" ("id") on delete cascade`,
      );
    }
    await this.execute(`alter table "revision" add column "tree" varchar(255) null`);
    await this.convertToTrees(this.transactionEm());
    await this.execute(`alter table "revision" drop column "pages", drop column "files"`);
  }

  /** An EntityManager in this run's transaction (made afresh: a migration may run down and up again). */
  private transactionEm(): EntityManager {
    const em = this.driver.createEntityManager() as EntityManager;
    em.setTransactionContext(this.ctx!);
    return em;
  }

  /** Stores every revision's manifest as a tree, space by space (what one space's revisions share is written once). */
  private async convertToTrees(em: EntityManager): Promise<void> {
    let after = { space: '', id: '' };
    let stored = new Set<string>();
    for (;;) {
      const rows = await queryIn<{ id: string; space: string; organization: string; pages: PageEntry[]; files: FileEntry[] }>(
        em,
        `select "id", "space_id" as "space", "organization_id" as "organization", "pages", "files" from "revision"
         where ("space_id", "id") > ($1, $2) order by "space_id", "id" limit $3`,
        [after.space, after.id, BATCH],
      );
      if (rows.length === 0) return;
      const pending = new Map<string, { owner: Owner; entries: TreeEntry[]; nodes: TreeNode[] }>();
      const trees: { id: string; tree: string | null }[] = [];
      for (const row of rows) {
        if (row.space !== after.space) stored = new Set();
        after = { space: row.space, id: row.id };
        // Paths are derived on reading from now on: they must come out as they were stored.
        if (!isDeepStrictEqual(arrange(row.pages), row.pages))
          throw new Error(`Revision ${row.id}: its stored page paths are not the ones its pages' places give; cannot convert it`);
        const tree = treeOf(row.space, { pages: row.pages, files: row.files.map((f, ordinal) => ({ ...f, ordinal })) });
        let batch = pending.get(row.space);
        if (!batch) pending.set(row.space, (batch = { owner: { organization: row.organization, space: row.space }, entries: [], nodes: [] }));
        for (const entry of tree.entries) if (!stored.has(entry.hash)) (batch.entries.push(entry), stored.add(entry.hash));
        for (const node of tree.nodes) if (!stored.has(node.hash)) (batch.nodes.push(node), stored.add(node.hash));
        trees.push({ id: row.id, tree: tree.root });
      }
      for (const batch of pending.values()) await storeObjects(em, batch.owner, batch, new Set());
      await queryIn(em, `update "revision" r set "tree" = t."tree" from jsonb_to_recordset($1::jsonb) as t("id" text, "tree" text) where r."id" = t."id"`, [
        JSON.stringify(trees),
      ]);
    }
  }

  override async down(): Promise<void> {
    await this.execute(`alter table "revision" add column "pages" jsonb not null default '[]', add column "files" jsonb not null default '[]'`);
    await this.convertToManifests(this.transactionEm());
    await this.execute(`alter table "revision" drop column "tree"`);
    await this.execute(`drop table if exists "content_node" cascade`);
    await this.execute(`drop table if exists "content_entry" cascade`);
  }

  /** Writes each revision's manifest (as the trees give it) back into its row. */
  private async convertToManifests(em: EntityManager): Promise<void> {
    let after = '';
    for (;;) {
      const ids = (
        await queryIn<{ id: string }>(em, `select "id" from "revision" where "id" > $1 and "tree" is not null order by "id" limit $2`, [after, BATCH])
      ).map((r) => r.id);
      if (ids.length === 0) return;
      after = ids[ids.length - 1]!;
      const [walked] = await queryIn<{ entries: EntryTuple[] }>(em, `${WALK_TREES} select ${WALKED_ENTRIES} as "entries"`, [ids]);
      const byRevision = entriesByRevision(walked!.entries);
      const manifests = ids.map((id) => {
        const { pages, files } = manifestOf(byRevision.get(id) ?? []);
        return { id, pages, files: files.map((f) => ({ file: f.file, version: f.version })) };
      });
      await queryIn(
        em,
        `update "revision" r set "pages" = t."pages", "files" = t."files" from jsonb_to_recordset($1::jsonb) as t("id" text, "pages" jsonb, "files" jsonb) where r."id" = t."id"`,
        [JSON.stringify(manifests)],
      );
    }
  }
}
