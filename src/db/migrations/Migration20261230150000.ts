import { Migration } from '@mikro-orm/migrations';

/**
 * A uuid for every domain event (the current client's audit events are named by one, 0.202.0's
 * `AuditEvent.id`): the column's default draws one for each event recorded before it (the table is
 * rewritten once), the server draws one for each new event; the unique index finds one event by it.
 */
export class Migration20261230150000 extends Migration {
  override name = 'Migration20261230150000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "domain_event" add column "uuid" uuid not null default gen_random_uuid()`);
    this.addSql(`alter table "domain_event" add constraint "domain_event_uuid_unique" unique ("uuid")`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "domain_event" drop column "uuid"`);
  }
}
