import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../db/statements.js';

/** Server-wide secrets generated on first start and shared by every instance through the database. */
export const ServerSecret = defineEntity({
  name: 'ServerSecret',
  properties: {
    name: p.string().primary(),
    value: p.text(),
    createdAt: p.datetime(),
  },
});
export type ServerSecretRow = Plain<InferEntity<typeof ServerSecret>>;
