import { generateServiceProviderMetadata, SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import type { Clock } from '../../kernel/clock.js';
import type { Config } from '../../kernel/config.js';
import { CLOCK_SKEW_MS, EMAIL_NAME_ID, serviceUrls, type ActiveSamlProvider, type SigningKey } from './service-provider.js';

/*
 * The SAML protocol itself, through node-saml. Its callers load this module with their first SAML
 * request (`await import('./saml-protocol.js')`): node-saml and its XML stack are ~20 MB that a server
 * whose organizations use no SSO need not hold.
 */

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
