import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Server-wide secrets generated on first start and shared by every instance through the database. */
export const ServerSecret = defineEntity({
  name: 'ServerSecret',
  properties: {
    name: p.string().primary(),
    value: p.text(),
    createdAt: p.datetime(),
  },
});
export type ServerSecretRow = InferEntity<typeof ServerSecret>;
