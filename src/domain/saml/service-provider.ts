import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import { storedSecret } from '../../auth/secrets.js';
import type { Clock } from '../../kernel/clock.js';
import type { Config } from '../../kernel/config.js';
import { selfSignedCertificate } from './certificates.js';
import type { SamlProviderRow } from './entities.js';

/** This server's side of a provider: where the identity provider sends people and answers, and who we are. */
export function serviceUrls(config: Config, providerId: string) {
  const base = `${config.publicUrl}/saml/${providerId}`;
  // The entity ID is the metadata URL, so an identity provider can fetch our metadata from it.
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}

/** Clock difference tolerated between this server and an identity provider. */
export const CLOCK_SKEW_MS = 60_000;

/** How long an AuthnRequest may wait for its answer. */
export const REQUEST_LIFETIME_MS = 60 * 60_000;

const SIGNING_KEY_SECRET = 'saml-signing-key';
const CERTIFICATE_YEARS = 20;
export const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

export type SigningKey = { privateKey: string; certificate: string };

/**
 * The server's SAML signing key (RSA 2048) and its self-signed certificate, made on first use and
 * shared by every instance and provider through the server secrets.
 */
export async function signingKey(em: EntityManager, clock: Clock, config: Config): Promise<SigningKey> {
  const stored = await storedSecret(em, clock, SIGNING_KEY_SECRET, async () => {
    const keys = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
    const from = clock.now();
    const until = new Date(from);
    until.setUTCFullYear(until.getUTCFullYear() + CERTIFICATE_YEARS);
    const certificate = selfSignedCertificate(keys, `${new URL(config.publicUrl).host} SAML`, from, until);
    return JSON.stringify({ privateKey: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), certificate } satisfies SigningKey);
  });
  return JSON.parse(stored) as SigningKey;
}

/** An active provider: everything a login needs is set. */
export type ActiveSamlProvider = SamlProviderRow & { entityID: string; ssoURL: string; certificate: string };

export const isActive = (provider: SamlProviderRow): provider is ActiveSamlProvider => !!provider.entityID && !!provider.ssoURL && !!provider.certificate;
