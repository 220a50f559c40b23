import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../clock.js';
import { serverSecret } from '../../auth/secrets.js';

/** Name of the server secret (256 bits, made on first use) that integration secrets are encrypted with. */
const KEY_NAME = 'integration-secrets-key';

export type SealedSecrets = { iv: string; tag: string; data: string };

/**
 * Encrypts an integration's secrets with AES-256-GCM. The integration's name is authenticated with
 * them, so sealed secrets copied onto another integration fail to open.
 */
export async function sealSecrets(em: EntityManager, clock: Clock, integrationName: string, secrets: Record<string, string>): Promise<SealedSecrets> {
  const key = await serverSecret(em, clock, KEY_NAME);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(integrationName, 'utf8'));
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/** The secrets sealed for that integration; throws when they were tampered with or sealed for another. */
export async function openSecrets(em: EntityManager, clock: Clock, integrationName: string, sealed: SealedSecrets): Promise<Record<string, string>> {
  const key = await serverSecret(em, clock, KEY_NAME);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(Buffer.from(integrationName, 'utf8'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  return JSON.parse(text) as Record<string, string>;
}
