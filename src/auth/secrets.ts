import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock.js';
import { ServerSecret } from './entities.js';

/**
 * The stored text of a named server secret, made by `generate` on first use. Concurrent first uses
 * race on the primary key and all end up with the stored value.
 */
export async function storedSecret(em: EntityManager, clock: Clock, name: string, generate: () => string | Promise<string>): Promise<string> {
  const existing = await em.findOne(ServerSecret, { name });
  if (existing) return existing.value;
  await em
    .createQueryBuilder(ServerSecret)
    .insert({ name, value: await generate(), createdAt: clock.now() })
    .onConflict('name')
    .ignore()
    .execute();
  return (await em.findOneOrFail(ServerSecret, { name }, { refresh: true })).value;
}

/** A named 256-bit secret, created on first use. */
export async function serverSecret(em: EntityManager, clock: Clock, name: string): Promise<Buffer> {
  return Buffer.from(await storedSecret(em, clock, name, () => randomBytes(32).toString('base64')), 'base64');
}
