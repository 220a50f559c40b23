import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../kernel/clock.js';
import { serverSecret } from './secrets.js';

/** A text encrypted with AES-256-GCM: its nonce, authentication tag and cipher text, in base64. */
export type SealedText = { iv: string; tag: string; data: string };

/**
 * Encrypts `text` with the named server secret (256 bits, made on first use). `owner` (what the text
 * belongs to) is authenticated with it, so a sealed text copied onto another owner fails to open.
 */
export async function sealWithServerKey(em: EntityManager, clock: Clock, keyName: string, owner: string, text: string): Promise<SealedText> {
  const key = await serverSecret(em, clock, keyName);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(owner, 'utf8'));
  const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/** The text sealed for `owner`; throws when it was tampered with or sealed for another. */
export async function openWithServerKey(em: EntityManager, clock: Clock, keyName: string, owner: string, sealed: SealedText): Promise<string> {
  const key = await serverSecret(em, clock, keyName);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(Buffer.from(owner, 'utf8'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
}
