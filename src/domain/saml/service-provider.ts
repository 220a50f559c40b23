import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import { generateServiceProviderMetadata, SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import { storedSecret } from '../../auth/secrets.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
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
const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

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

/** node-saml reading validity windows from the server's clock instead of the system time. */
class ClockedSaml extends SAML {
  constructor(
    options: ConstructorParameters<typeof SAML>[0],
    private readonly clock: Clock,
  ) {
    super(options);
  }

  protected override checkTimestampsValidityError(_systemNowMs: number, notBefore: string, notOnOrAfter: string, maxTimeLimitMs?: number) {
    return super.checkTimestampsValidityError(this.clock.now().getTime(), notBefore, notOnOrAfter, maxTimeLimitMs);
  }
}

/** An active provider: everything a login needs is set. */
export type ActiveSamlProvider = SamlProviderRow & { entityID: string; ssoURL: string; certificate: string };

export const isActive = (provider: SamlProviderRow): provider is ActiveSamlProvider =>
  !!provider.entityID && !!provider.ssoURL && !!provider.certificate;

/**
 * The SAML service provider of one identity provider: signs AuthnRequests (HTTP-Redirect binding,
 * RSA-SHA256) and accepts responses whose response or assertion is signed with the provider's
 * certificate, for our entity ID, within their validity window, answering a request of `requests`.
 */
export function serviceProvider(provider: ActiveSamlProvider, key: SigningKey, requests: CacheProvider, clock: Clock, config: Config): SAML {
  const service = serviceUrls(config, provider.id);
  return new ClockedSaml(
    {
      issuer: service.entityID,
      audience: service.entityID,
      callbackUrl: service.acsURL,
      entryPoint: provider.ssoURL,
      idpCert: provider.certificate,
      privateKey: key.privateKey,
      signatureAlgorithm: 'sha256',
      identifierFormat: EMAIL_NAME_ID,
      // Identity providers sign the response, the assertion or both: one valid signature is required.
      wantAuthnResponseSigned: false,
      wantAssertionsSigned: false,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      cacheProvider: requests,
      // The request store expires requests by the server's clock; node-saml's own check reads the system time.
      requestIdExpirationPeriodMs: Number.MAX_SAFE_INTEGER,
      // Let the identity provider choose how to authenticate (MFA, passkeys, ...).
      disableRequestedAuthnContext: true,
    },
    clock,
  );
}

/** Our SP metadata for the provider: entity ID, ACS (HTTP-POST) and the certificate AuthnRequests are signed with. */
export function serviceProviderMetadata(providerId: string, key: SigningKey, config: Config): string {
  const service = serviceUrls(config, providerId);
  return generateServiceProviderMetadata({
    issuer: service.entityID,
    callbackUrl: service.acsURL,
    identifierFormat: EMAIL_NAME_ID,
    privateKey: key.privateKey,
    publicCerts: key.certificate,
    wantAssertionsSigned: false,
  });
}
