import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { selfSignedCertificate } from '../../src/domain/saml/index.js';
import { Team, type TeamRow } from '../../src/domain/teams/index.js';
import { newId } from '../../src/kernel/ids.js';
import type { TestServer } from './server.js';

/** A team row of the organization (teams have their own operations in another area). */
export async function insertTeam(server: TestServer, organizationId: string, title = 'Engineering'): Promise<TeamRow> {
  const em = server.em();
  const team = em.create(Team, { id: newId(), organization: organizationId, title, createdAt: server.clock.now() });
  await em.flush();
  return team;
}

/** A throw-away identity provider signing key and its self-signed certificate (PEM). */
export function identityProviderKeys(name = 'Test IdP') {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certificate = selfSignedCertificate(keys, name, new Date('2020-01-01T00:00:00Z'), new Date('2045-01-01T00:00:00Z'));
  return { privateKey: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), certificate };
}
export type IdentityProviderKeys = ReturnType<typeof identityProviderKeys>;

export type AssertionFields = {
  /** The IdP's entity ID (Issuer of response and assertion). */
  issuer: string;
  /** The AuthnRequest ID answered. */
  inResponseTo: string;
  /** Our ACS URL (Destination, Recipient). */
  acsURL: string;
  /** Our entity ID (Audience). */
  audience: string;
  email: string;
  /** When the assertion was issued; the window is [issuedAt - 1 min, issuedAt + 5 min). */
  issuedAt: Date;
  assertionId?: string;
  attributes?: Record<string, string>;
};

const xmlText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const minutes = (at: Date, n: number) => new Date(at.getTime() + n * 60_000).toISOString();
export const newSamlId = () => `_${randomBytes(16).toString('hex')}`;

/** An unsigned SAML 2.0 Response with one assertion, as an identity provider builds it. */
export function samlResponseXml(fields: AssertionFields): string {
  const { issuer, inResponseTo, acsURL, audience, email, issuedAt } = fields;
  const instant = issuedAt.toISOString();
  const attributes = Object.entries({ email, ...fields.attributes })
    .map(([name, value]) => `<saml:Attribute Name="${xmlText(name)}"><saml:AttributeValue>${xmlText(value)}</saml:AttributeValue></saml:Attribute>`)
    .join('');
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="${newSamlId()}" Version="2.0" IssueInstant="${instant}" Destination="${acsURL}" InResponseTo="${inResponseTo}">` +
    `<saml:Issuer>${xmlText(issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="${fields.assertionId ?? newSamlId()}" Version="2.0" IssueInstant="${instant}">` +
    `<saml:Issuer>${xmlText(issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${xmlText(email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData InResponseTo="${inResponseTo}" NotOnOrAfter="${minutes(issuedAt, 5)}" Recipient="${acsURL}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${minutes(issuedAt, -1)}" NotOnOrAfter="${minutes(issuedAt, 5)}">` +
    `<saml:AudienceRestriction><saml:Audience>${xmlText(audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${instant}" SessionIndex="${newSamlId()}"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
    `</saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` +
    `</saml:Assertion></samlp:Response>`
  );
}

/**
 * Signs the Assertion (or the whole Response) of `xml` with an enveloped RSA-SHA256 signature placed
 * after its Issuer, as identity providers do; the certificate travels in KeyInfo.
 */
export function signSaml(xml: string, keys: IdentityProviderKeys, element: 'Assertion' | 'Response' = 'Assertion'): string {
  const target = `//*[local-name(.)='${element}']`;
  const signer = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: target,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, { prefix: 'ds', location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

/** The form field of the HTTP-POST binding. */
export const samlResponseField = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
