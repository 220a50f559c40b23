import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../kernel/clock.js';
import type { Config } from '../kernel/config.js';
import type { Logger } from '../kernel/logger.js';
import { InstanceSetting } from './entities.js';

/*
 * Instances on one database must build the same URLs (every `urls` field, SAML service URLs that
 * identity providers trust), so the first start that sets PUBLIC_URL records it and a start with
 * another value refuses. OWNER_TOKEN only matters to the first start, which records its token's
 * fingerprint; a later OWNER_TOKEN that is not that token is harmless and only warned about.
 */

const PUBLIC_URL = 'public_url';
const OWNER_TOKEN_SHA256 = 'owner_token_sha256';

/** This instance disagrees with what the database records: a one-line message for the operator. */
export class InstanceDisagreement extends Error {}

/** The form in which PUBLIC_URL values compare: the case of scheme and host, a default port and trailing slashes do not count. */
export const canonicalUrl = (url: string) => new URL(url).href.replace(/\/+$/, '');

/**
 * Records PUBLIC_URL on the first start that sets one; throws InstanceDisagreement when the recorded
 * value is another (or when PUBLIC_URL is unset while one is recorded). With PUBLIC_URL_PREVIOUS equal
 * to the recorded value, records PUBLIC_URL instead: the deliberate change. Instances starting at once
 * race on the primary key, and all but the first compare with what it recorded.
 */
export async function agreeOnPublicUrl(em: EntityManager, clock: Clock, config: Config, logger: Logger): Promise<void> {
  if (!config.publicUrlConfigured) {
    const recorded = await em.findOne(InstanceSetting, { name: PUBLIC_URL });
    if (recorded) {
      throw new InstanceDisagreement(
        `PUBLIC_URL is not set (this instance would use ${config.publicUrl}) but this database is served at ${recorded.value}: set PUBLIC_URL=${recorded.value} as on the other instances`,
      );
    }
    return;
  }
  const url = canonicalUrl(config.publicUrl);
  await em.createQueryBuilder(InstanceSetting).insert({ name: PUBLIC_URL, value: url, recordedAt: clock.now() }).onConflict('name').ignore().execute();
  let recorded = await recordedValue(em, PUBLIC_URL);
  if (recorded === url) return;
  const previous = config.publicUrlPrevious && canonicalUrl(config.publicUrlPrevious);
  if (previous === recorded) {
    // Only from the value this start was told it replaces: a second instance told the same lands on the first's result.
    const changed = await em.nativeUpdate(InstanceSetting, { name: PUBLIC_URL, value: previous }, { value: url, recordedAt: clock.now() });
    if (changed) {
      logger.warn(
        { from: previous, to: url },
        'PUBLIC_URL changed: recorded the new value; restart the other instances with it, and give SAML identity providers the new service URLs',
      );
      return;
    }
    recorded = await recordedValue(em, PUBLIC_URL);
    if (recorded === url) return;
  }
  throw new InstanceDisagreement(
    `PUBLIC_URL is ${config.publicUrl} but this database is served at ${recorded}: set PUBLIC_URL=${recorded} as on the other instances, ` +
      `or, to move every instance to ${config.publicUrl}, start once with PUBLIC_URL_PREVIOUS=${recorded}`,
  );
}

async function recordedValue(em: EntityManager, name: string): Promise<string | undefined> {
  return (await em.findOne(InstanceSetting, { name }, { refresh: true }))?.value;
}

/** Records the fingerprint of the owner's token made by the first start (in the provisioning transaction). */
export function recordOwnerToken(em: EntityManager, clock: Clock, secretHash: string): void {
  em.create(InstanceSetting, { name: OWNER_TOKEN_SHA256, value: secretHash, recordedAt: clock.now() });
}

/** The owner token's hash this database was provisioned with, if it was. */
export const provisionedOwnerTokenHash = (em: EntityManager): Promise<string | undefined> => recordedValue(em, OWNER_TOKEN_SHA256);
