import type { EntityManager } from '@mikro-orm/postgresql';
import { Migration } from '@mikro-orm/migrations';
import { CompiledQuery } from 'kysely';
import { customAlphabet } from 'nanoid';
import { parse as parseYaml } from 'yaml';

/** Ids as src/kernel/ids.ts makes them (frozen here). */
const newId = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 20);

/** Specs read per statement (a text source can be megabytes). */
const BATCH = 20;

type SpecRow = {
  id: string;
  organization: string;
  source_url: string | null;
  source_text: string | null;
  /** The last processing read the current source, and succeeded. */
  current: boolean;
  last_version: string | null;
  last_title: string | null;
  last_format: string;
  processed_at: Date;
};

/**
 * OpenAPI spec versions (the current client's openapi-versions operations): every processing that
 * succeeds keeps what it read as a version of the spec (`openapi_spec_version`: the document parsed,
 * the source as received, `info.version`, title and format), and the spec's `last_version`, which held
 * the last document's `info.version`, names its newest version instead, as the reference defines it.
 * A spec gets its `visibility` (private until a PATCH says otherwise).
 *
 * Each spec processed successfully before gets its first version from what the spec kept of that
 * processing. Its document is known only when the last processing read the spec's current source and
 * that source is a text: then it is parsed again here, as processing does (YAML 1.2, which reads JSON
 * too). Otherwise (a URL, whose body was never stored, or a text replaced since) the version holds no
 * document and no source: its content answers 404 until the spec is processed again. `down` puts each
 * spec's `info.version` back.
 */
export class Migration20261230184700 extends Migration {
  override name = 'Migration20261230184700';

  override async up(): Promise<void> {
    await this.execute(
      `create table "openapi_spec_version" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "spec_id" varchar(255) not null, "number" int not null, "source_url" varchar(2048) null, "version" varchar(255) null, "title" text null, "format" varchar(255) not null, "content" text null, "raw_text" text null, "raw_format" varchar(255) null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    await this.execute(`alter table "openapi_spec_version" add constraint "openapi_spec_version_spec_id_number_unique" unique ("spec_id", "number")`);
    await this.execute(
      `alter table "openapi_spec_version" add constraint "openapi_spec_version_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    await this.execute(
      `alter table "openapi_spec_version" add constraint "openapi_spec_version_spec_id_foreign" foreign key ("spec_id") references "openapi_spec" ("id") on delete cascade`,
    );
    await this.execute(`alter table "openapi_spec" add column "visibility" varchar(255) not null default 'private'`);
    await this.keepProcessedVersions(this.transactionEm());
  }

  override async down(): Promise<void> {
    await this.execute(`update "openapi_spec" s set "last_version" = v."version" from "openapi_spec_version" v where v."id" = s."last_version"`);
    await this.execute(`drop table if exists "openapi_spec_version" cascade`);
    await this.execute(`alter table "openapi_spec" drop column "visibility"`);
  }

  /** An EntityManager in this run's transaction (made afresh: a migration may run down and up again). */
  private transactionEm(): EntityManager {
    const em = this.driver.createEntityManager() as EntityManager;
    em.setTransactionContext(this.ctx!);
    return em;
  }

  /** Gives each spec processed successfully its first version, and points its `last_version` at it. */
  private async keepProcessedVersions(em: EntityManager): Promise<void> {
    // Only a success records a format: a spec without one has no version (and no info.version to drop).
    await queryIn(em, `update "openapi_spec" set "last_version" = null where "last_format" is null`);
    let after = '';
    for (;;) {
      const specs = await queryIn<SpecRow>(
        em,
        `select "id", "organization_id" as "organization", "source_url", "source_text", "last_version", "last_title", "last_format",
           ("processing_state" = 'complete' and "last_process_error_code" is null) as "current",
           coalesce("last_processed_at", "updated_at") as "processed_at"
         from "openapi_spec" where "id" > $1 and "last_format" is not null order by "id" limit $2`,
        [after, BATCH],
      );
      if (specs.length === 0) return;
      for (const spec of specs) {
        const text = spec.current && spec.source_url === null ? spec.source_text : null;
        const document = text === null ? null : documentOf(text);
        const id = newId();
        await queryIn(
          em,
          `insert into "openapi_spec_version" ("id", "organization_id", "spec_id", "number", "source_url", "version", "title", "format", "content", "raw_text", "raw_format", "created_at")
           values ($1, $2, $3, 1, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            id,
            spec.organization,
            spec.id,
            spec.current ? spec.source_url : null,
            spec.last_version,
            spec.last_title,
            spec.last_format,
            document?.content ?? null,
            document ? text : null,
            document?.syntax ?? null,
            spec.processed_at,
          ],
        );
        await queryIn(em, `update "openapi_spec" set "last_version" = $1 where "id" = $2`, [id, spec.id]);
      }
      after = specs[specs.length - 1].id;
    }
  }
}

async function queryIn<T>(em: EntityManager, sql: string, parameters: readonly unknown[] = []): Promise<T[]> {
  type Executor = { executeQuery(query: CompiledQuery): Promise<{ rows: unknown[] }> };
  const executor: Executor = em.getTransactionContext<Executor>() ?? em.getConnection().getClient();
  const result = await executor.executeQuery(CompiledQuery.raw(sql, [...parameters]));
  return result.rows as T[];
}

/**
 * The document a text source holds, as JSON text (as src/domain/openapi/processing.ts stores it), and
 * the text's syntax: `json` for a JSON document, else `yaml`; null when it does not read as a document.
 */
function documentOf(text: string): { content: string; syntax: 'json' | 'yaml' } | null {
  // A specification that processing read is the same document as JSON and as YAML 1.2 (a superset).
  const read = (syntax: 'json' | 'yaml') => (syntax === 'json' ? (JSON.parse(text) as unknown) : parseYaml(text));
  for (const syntax of ['json', 'yaml'] as const) {
    try {
      const document = read(syntax);
      return document && typeof document === 'object' && !Array.isArray(document) ? { content: JSON.stringify(document), syntax } : null;
    } catch {
      // not this syntax
    }
  }
  return null;
}
