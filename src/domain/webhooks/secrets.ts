import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../kernel/clock.js';
import { openWithServerKey, sealWithServerKey, type SealedText } from '../../auth/server-key-sealing.js';

/** Name of the server secret that webhook signing secrets are sealed with. */
const KEY_NAME = 'webhook-secrets-key';

/** A new signing secret as Standard Webhooks writes them: `whsec_` and 24 random bytes in base64. */
export const newSigningSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** The signing secret sealed for the endpoint `webhookId`, as the endpoint's row stores it. */
export async function sealSigningSecret(em: EntityManager, clock: Clock, webhookId: string, secret: string): Promise<string> {
  return JSON.stringify(await sealWithServerKey(em, clock, KEY_NAME, `webhook ${webhookId}`, secret));
}

/** The endpoint's signing secret in clear, for signing a delivery. */
export function openSigningSecret(em: EntityManager, clock: Clock, webhookId: string, stored: string): Promise<string> {
  return openWithServerKey(em, clock, KEY_NAME, `webhook ${webhookId}`, JSON.parse(stored) as SealedText);
}
