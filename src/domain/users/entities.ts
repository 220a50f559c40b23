import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';

export const User = defineEntity({
  name: 'User',
  tableName: 'app_user',
  properties: {
    id: p.string().primary(),
    email: p.string().unique(),
    displayName: p.string(),
    photoURL: p.text().nullable(),
    /** Manages the server's users, their API tokens and organizations (see the @instanceAdmin guard). */
    instanceAdmin: p.boolean().default(false),
    createdAt: p.datetime(),
  },
});
export type UserRow = Plain<InferEntity<typeof User>>;

/** An API token. Only the SHA-256 of the secret is stored; the secret is shown once, at creation. */
export const ApiToken = defineEntity({
  name: 'ApiToken',
  properties: {
    id: p.string().primary(),
    user: () => p.manyToOne(User).mapToPk().deleteRule('cascade').index(),
    secretHash: p.string().unique(),
    label: p.string(),
    createdAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    /** The one organization the token may act in (null: every organization of its user). */
    organization: p.string().fieldName('organization_id').nullable(),
    /** The highest role the token acts with (null: its user's roles, uncapped). */
    roleCap: p.string().nullable(),
    /** When the token stops authenticating (null: never). */
    expiresAt: p.datetime().nullable(),
    /** When the token last authenticated a request, to the minute (see auth/authenticate.ts). */
    lastUsedAt: p.datetime().nullable(),
  },
});
export type ApiTokenRow = Plain<InferEntity<typeof ApiToken>>;

declare module '../../kernel/rows.js' {
  interface Rows {
    User: UserRow;
  }
}
