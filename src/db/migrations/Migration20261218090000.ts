import { Migration } from '@mikro-orm/migrations';

/**
 * The domain events' outbox (src/events/entities.ts). A row's insert notifies the channel
 * `domain_event_<schema>` with the event's id, sequence, type and organization; PostgreSQL delivers a
 * notification only when (and if) its transaction commits, so listeners never hear of a rolled-back
 * change. The payload stays far below NOTIFY's 8000 bytes: listeners read the row itself.
 */
export class Migration20261218090000 extends Migration {
  override name = 'Migration20261218090000';

  override up(): void | Promise<void> {
    this.addSql(`create table "domain_event" (
      "id" varchar(255) not null,
      "seq" bigserial,
      "type" varchar(64) not null,
      "organization_id" varchar(255) null,
      "actor_user_id" varchar(255) null,
      "actor_token_id" varchar(255) null,
      "client_ip" varchar(255) null,
      "door" varchar(16) null,
      "operation" varchar(255) null,
      "outcome" varchar(16) not null,
      "target" jsonb not null,
      "target_ids" text[] not null,
      "payload" jsonb not null,
      "occurred_at" timestamptz not null,
      "dispatched_at" timestamptz null,
      constraint "domain_event_pkey" primary key ("id"))`);
    this.addSql(`alter table "domain_event" add constraint "domain_event_seq_unique" unique ("seq")`);
    this.addSql(`create index "domain_event_organization_id_seq_index" on "domain_event" ("organization_id", "seq")`);
    this.addSql(`create index "domain_event_organization_id_type_seq_index" on "domain_event" ("organization_id", "type", "seq")`);
    this.addSql(`create index "domain_event_organization_id_actor_user_id_seq_index" on "domain_event" ("organization_id", "actor_user_id", "seq")`);
    this.addSql(`create index "domain_event_target_ids_index" on "domain_event" using gin ("target_ids")`);
    this.addSql(`create index "domain_event_occurred_at_index" on "domain_event" ("occurred_at")`);
    this.addSql(`create index "domain_event_undispatched_index" on "domain_event" ("seq") where "dispatched_at" is null`);
    this.addSql(`create function "domain_event_notify"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('domain_event_' || tg_table_schema, json_build_object(
          'id', new."id", 'seq', new."seq", 'type', new."type", 'organizationId', new."organization_id", 'outcome', new."outcome")::text);
        return null;
      end $$`);
    this.addSql(`create trigger "domain_event_notify" after insert on "domain_event" for each row execute function "domain_event_notify"()`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "domain_event"`);
    this.addSql(`drop function "domain_event_notify"()`);
  }
}
