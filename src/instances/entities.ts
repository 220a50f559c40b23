import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../db/statements.js';

/**
 * A value every instance serving one database must agree on, recorded in the database by the first
 * start that knew it (see agreement.ts): `public_url`, `owner_token_sha256`.
 */
export const InstanceSetting = defineEntity({
  name: 'InstanceSetting',
  properties: {
    name: p.string().primary(),
    value: p.text(),
    recordedAt: p.datetime(),
  },
});
export type InstanceSettingRow = Plain<InferEntity<typeof InstanceSetting>>;
