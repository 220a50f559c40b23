import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock.js';
import { ServerSecret } from './entities.js';

/**
 * A named 256-bit secret, created on first use. Concurrent first uses race on the primary key and
 * all end up with the stored value.
 */
export async function serverSecret(em: EntityManager, clock: Clock, name: string): Promise<Buffer> {
  const existing = await em.findOne(ServerSecret, { name });
  if (existing) return Buffer.from(existing.value, 'base64');
  await em
    .createQueryBuilder(ServerSecret)
    .insert({ name, value: randomBytes(32).toString('base64'), createdAt: clock.now() })
    .onConflict('name')
    .ignore()
    .execute();
  const stored = await em.findOneOrFail(ServerSecret, { name }, { refresh: true });
  return Buffer.from(stored.value, 'base64');
}
