import type { EntityManager } from '@mikro-orm/postgresql';
import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import type { Clock } from '../../kernel/clock.js';
import { SamlConsumedAssertion, SamlRequest, type SamlRequestRow } from './entities.js';
import { REQUEST_LIFETIME_MS } from './service-provider.js';

/**
 * node-saml's store of outstanding AuthnRequest ids, kept in the database for one provider and one
 * login step. Requests expire by the server's clock. A request is used up at most once: `consume`
 * tells whether this step is the one that took it out of the database.
 */
export class SamlRequestStore implements CacheProvider {
  private readonly seen = new Map<string, SamlRequestRow>();
  private readonly removed = new Set<string>();

  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
    private readonly providerId: string,
    /** Where a login started with this store sends the browser afterwards. */
    private readonly returnTo = '',
  ) {}

  async saveAsync(key: string, value: string): Promise<CacheItem> {
    const now = this.clock.now();
    this.em.create(SamlRequest, {
      id: key,
      provider: this.providerId,
      returnTo: this.returnTo,
      createdAt: now,
      expiresAt: new Date(now.getTime() + REQUEST_LIFETIME_MS),
    });
    await this.em.flush();
    return { value, createdAt: now.getTime() };
  }

  async getAsync(key: string): Promise<string | null> {
    const request = await this.em.findOne(SamlRequest, { id: key, provider: this.providerId, expiresAt: { $gt: this.clock.now() } });
    if (!request) return null;
    this.seen.set(key, request);
    return request.createdAt.toISOString();
  }

  async removeAsync(key: string | null): Promise<string | null> {
    if (!key) return null;
    const deleted = await this.em.nativeDelete(SamlRequest, { id: key, provider: this.providerId });
    if (!deleted) return null;
    this.removed.add(key);
    return key;
  }

  /**
   * Uses up the request `id` after a response answering it was accepted: its row when this step took
   * it out of the database (during validation or now), null when another step got there first.
   */
  async consume(id: string): Promise<SamlRequestRow | null> {
    if (!this.removed.has(id)) await this.removeAsync(id);
    return this.removed.has(id) ? (this.seen.get(id) ?? null) : null;
  }
}

/** Records an accepted assertion; false when it had been accepted before (a replay). */
export async function rememberAssertion(em: EntityManager, providerId: string, assertionId: string, expiresAt: Date): Promise<boolean> {
  const result = await em
    .createQueryBuilder(SamlConsumedAssertion)
    .insert({ provider: providerId, assertionId, expiresAt })
    .onConflict(['provider', 'assertionId'])
    .ignore()
    .execute('run');
  return result.affectedRows === 1;
}

/** Forgets requests and assertions past their expiry: the validity checks refuse those anyway. */
export async function forgetExpired(em: EntityManager, now: Date): Promise<void> {
  await em.nativeDelete(SamlRequest, { expiresAt: { $lte: now } });
  await em.nativeDelete(SamlConsumedAssertion, { expiresAt: { $lte: now } });
}
