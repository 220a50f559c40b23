import { Migration } from '@mikro-orm/migrations';

/**
 * Finding a webhook endpoint's delivery job (src/domain/webhooks/delivery-queue.ts: at most one per
 * endpoint) read every job row of the queue; this index finds it directly, and serves the lookups of a
 * kind alone (`enqueueUnlessPending`) by its first column.
 */
export class Migration20261219100000 extends Migration {
  override name = 'Migration20261219100000';

  override up(): void | Promise<void> {
    this.addSql(`create index "job_kind_webhook_id_index" on "job" ("kind", ("payload"->>'webhookId'))`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "job_kind_webhook_id_index"`);
  }
}
