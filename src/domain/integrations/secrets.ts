import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../kernel/clock.js';
import { openWithServerKey, sealWithServerKey, type SealedText } from '../../auth/server-key-sealing.js';

/** Name of the server secret (256 bits, made on first use) that integration secrets are encrypted with. */
const KEY_NAME = 'integration-secrets-key';

export type SealedSecrets = SealedText;

/**
 * Encrypts an integration's secrets with AES-256-GCM. The integration's name is authenticated with
 * them, so sealed secrets copied onto another integration fail to open.
 */
export function sealSecrets(em: EntityManager, clock: Clock, integrationName: string, secrets: Record<string, string>): Promise<SealedSecrets> {
  return sealWithServerKey(em, clock, KEY_NAME, integrationName, JSON.stringify(secrets));
}

/** The secrets sealed for that integration; throws when they were tampered with or sealed for another. */
export async function openSecrets(em: EntityManager, clock: Clock, integrationName: string, sealed: SealedSecrets): Promise<Record<string, string>> {
  return JSON.parse(await openWithServerKey(em, clock, KEY_NAME, integrationName, sealed)) as Record<string, string>;
}
