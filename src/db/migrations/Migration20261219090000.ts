import { Migration } from '@mikro-orm/migrations';

/** Webhook endpoints, their deliveries and the attempts of each (src/domain/webhooks/entities.ts). */
export class Migration20261219090000 extends Migration {
  override name = 'Migration20261219090000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "webhook_endpoint" ("id" varchar(255) not null, "organization_id" varchar(255) not null, "url" text not null, "event_types" jsonb not null, "active" boolean not null, "description" varchar(500) null, "secret" text not null, "failure_streak" int not null, "disabled_at" timestamptz null, "disabled_reason" text null, "from_seq" bigint not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "webhook_endpoint_organization_id_created_at_id_index" on "webhook_endpoint" ("organization_id", "created_at", "id")`);
    this.addSql(
      `create table "webhook_delivery" ("id" varchar(255) not null, "seq" bigserial, "webhook_id" varchar(255) not null, "organization_id" varchar(255) not null, "event_id" varchar(255) not null, "event_type" varchar(64) not null, "status" varchar(16) not null, "attempts" int not null, "next_attempt_at" timestamptz not null, "delivered_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_seq_unique" unique ("seq")`);
    this.addSql(`create index "webhook_delivery_webhook_id_status_seq_index" on "webhook_delivery" ("webhook_id", "status", "seq")`);
    this.addSql(`create index "webhook_delivery_webhook_id_seq_index" on "webhook_delivery" ("webhook_id", "seq")`);
    this.addSql(
      `create table "webhook_delivery_attempt" ("id" varchar(255) not null, "delivery_id" varchar(255) not null, "attempt" int not null, "status" varchar(16) not null, "response_status" int null, "duration_ms" int not null, "error" text null, "attempted_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "webhook_delivery_attempt_delivery_id_attempt_index" on "webhook_delivery_attempt" ("delivery_id", "attempt")`);
    this.addSql(
      `alter table "webhook_endpoint" add constraint "webhook_endpoint_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "webhook_delivery" add constraint "webhook_delivery_webhook_id_foreign" foreign key ("webhook_id") references "webhook_endpoint" ("id") on delete cascade`,
    );
    this.addSql(
      `alter table "webhook_delivery_attempt" add constraint "webhook_delivery_attempt_delivery_id_foreign" foreign key ("delivery_id") references "webhook_delivery" ("id") on delete cascade`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "webhook_delivery_attempt"`);
    this.addSql(`drop table "webhook_delivery"`);
    this.addSql(`drop table "webhook_endpoint"`);
  }
}
