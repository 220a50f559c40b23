/**
 * Single sign-on that signs people in: a provider's startURL sends the browser to the identity
 * provider with a signed AuthnRequest; its acsURL takes the identity provider's signed response,
 * verifies it (signature, issuer, audience, validity window, InResponseTo, replay) and hands the
 * browser a new API token. Responses are signed here with a throw-away identity provider key.
 */
import { verify, X509Certificate } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Member } from '../src/domain/organizations/index.js';
import { SamlConsumedAssertion, SamlRequest } from '../src/domain/saml/index.js';
import { TeamMember } from '../src/domain/teams/index.js';
import { ApiToken, User } from '../src/domain/users/index.js';
import { newId } from '../src/kernel/ids.js';
import { callerFor, newMember, newOrganizationWithRoles, newUser, type Caller } from './support/factories.js';
import { expectError } from './support/expectations.js';
import {
  identityProviderKeys,
  insertTeam,
  newSamlId,
  samlResponseField,
  samlResponseXml,
  signSaml,
  type AssertionFields,
  type IdentityProviderKeys,
} from './support/saml.js';
import { useTestServer } from './support/server.js';
import { capturedLogs } from './support/logs.js';

const APP_URL = 'http://app.docs.test';
const IDP_ENTITY_ID = 'https://idp.example.com/metadata';
const IDP_SSO_URL = 'https://idp.example.com/sso';
const MINUTE = 60_000;

const { logger, lines: logLines } = capturedLogs('info');
const server = useTestServer({ APP_URL }, { logger });
let idp: IdentityProviderKeys;
let intruder: IdentityProviderKeys;
beforeAll(async () => {
  idp = identityProviderKeys('Test IdP');
  intruder = identityProviderKeys('Intruder');
});
beforeEach(() => server.clock.advance(1000));

type Provider = { id: string; label: string; service: { acsURL: string; startURL: string; entityID: string } };

/** An organization with an SSO provider (new members: `edit`, in the team "Engineering"). */
async function ssoOrganization(overrides: Record<string, unknown> = {}) {
  const people = await newOrganizationWithRoles(server);
  const team = await insertTeam(server, people.organization.id);
  const res = await people.admin.rest('POST', `/v1/orgs/${people.organization.id}/saml`, {
    label: 'Okta',
    entityID: IDP_ENTITY_ID,
    ssoURL: IDP_SSO_URL,
    certificate: idp.certificate,
    defaultRole: 'edit',
    defaultTeam: team.id,
    ...overrides,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...people, team, provider: res.body as Provider };
}

/** The path of one of our service URLs (they are built on PUBLIC_URL, the test server listens elsewhere). */
const pathOf = (url: string) => new URL(url).pathname;

/** GET the provider's startURL: the identity provider's URL the browser is sent to. */
async function start(provider: Provider, query = '') {
  const res = await fetch(`${server.url}${pathOf(provider.service.startURL)}${query}`, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), body: res.status >= 400 ? await res.json() : undefined };
}

/** Starts a login and returns the AuthnRequest the identity provider receives. */
async function authnRequest(provider: Provider, query = '') {
  const res = await start(provider, query);
  expect(res.status, JSON.stringify(res.body)).toBe(302);
  const url = new URL(res.location!);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  return { url, xml, id: /\sID="([^"]+)"/.exec(xml)![1] };
}

/** What the identity provider answers to `requestId` for `email`, before signing. */
function answer(provider: Provider, requestId: string, email: string, overrides: Partial<AssertionFields> = {}): string {
  return samlResponseXml({
    issuer: IDP_ENTITY_ID,
    inResponseTo: requestId,
    acsURL: provider.service.acsURL,
    audience: provider.service.entityID,
    email,
    issuedAt: server.clock.now(),
    ...overrides,
  });
}

/** POSTs a response to the provider's ACS as the browser does (HTTP-POST binding). */
async function post(provider: Provider, xml: string) {
  const res = await fetch(`${server.url}${pathOf(provider.service.acsURL)}`, {
    method: 'POST',
    body: new URLSearchParams({ SAMLResponse: samlResponseField(xml) }),
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  return { status: res.status, location, body: res.status >= 400 ? await res.json() : undefined, headers: res.headers };
}

/** A full login: start, identity provider's signed answer, ACS. Returns the browser's destination and the token. */
async function logIn(provider: Provider, email: string, query = '') {
  const request = await authnRequest(provider, query);
  const res = await post(provider, signSaml(answer(provider, request.id, email), idp));
  expect(res.status, JSON.stringify(res.body)).toBe(303);
  const destination = new URL(res.location!);
  const fragment = new URLSearchParams(destination.hash.slice(1));
  return { destination, token: fragment.get('token')!, organization: fragment.get('organization') };
}

const refusal = (res: { status: number; body?: unknown }, reason: RegExp) => {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body).toEqual({ error: { code: 401, message: expect.stringMatching(/^SAML response refused: /) } });
  expect((res.body as { error: { message: string } }).error.message).toMatch(reason);
};

const emailAt = (domain = 'corp.example.com') => `person-${newId().toLowerCase()}@${domain}`;

// ─── starting a login ───────────────────────────────────────────────────────────────────────────────

describe('startURL', () => {
  it('sends the browser to the identity provider with an AuthnRequest signed with the key of the SP metadata', async () => {
    const { provider } = await ssoOrganization();
    const { url, xml, id } = await authnRequest(provider);
    expect(`${url.origin}${url.pathname}`).toBe(IDP_SSO_URL);
    expect(xml).toContain(`Destination="${IDP_SSO_URL}"`);
    expect(xml).toContain(`AssertionConsumerServiceURL="${provider.service.acsURL}"`);
    expect(xml).toContain(`>${provider.service.entityID}</saml:Issuer>`);
    expect(id).toMatch(/^_[0-9a-f]{40}$/);

    // HTTP-Redirect binding: the signature covers SAMLRequest, RelayState (none) and SigAlg as sent.
    expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    const signed = url.search
      .slice(1)
      .split('&')
      .filter((part) => /^(SAMLRequest|SigAlg)=/.test(part))
      .join('&');
    const metadata = await fetch(`${server.url}${pathOf(provider.service.entityID)}`).then((r) => r.text());
    const certificate = new X509Certificate(
      `-----BEGIN CERTIFICATE-----\n${/<ds:X509Certificate>([^<]+)</.exec(metadata)![1].trim()}\n-----END CERTIFICATE-----`,
    );
    expect(verify('sha256', Buffer.from(signed), certificate.publicKey, Buffer.from(url.searchParams.get('Signature')!, 'base64'))).toBe(true);

    // The request is remembered in the database, so that any instance takes the answer.
    const stored = await server.em().findOneOrFail(SamlRequest, { id });
    expect(stored).toMatchObject({ provider: provider.id, returnTo: `${APP_URL}/` });
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(60 * MINUTE);
  });

  it('answers 404 for an unknown provider, 409 for a pending one and 400 for a returnTo outside the web application', async () => {
    const { provider, admin, organization } = await ssoOrganization();
    expectError(
      await fetch(`${server.url}/saml/nope/start`).then(async (r) => ({ status: r.status, body: await r.json(), headers: r.headers })),
      404,
      'SAML provider not found',
    );
    const pending = await admin.rest('POST', `/v1/orgs/${organization.id}/saml`, { label: 'Later' });
    const res = await start(pending.body);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: { code: 409, message: 'SAML provider is not configured yet: it needs entityID, ssoURL and certificate' } });
    for (const returnTo of ['https://evil.example.com/', '//evil.example.com/x']) {
      const out = await start(provider, `?returnTo=${encodeURIComponent(returnTo)}`);
      expect(out.status, returnTo).toBe(400);
      expect(out.body.error.message).toBe('returnTo: must be a URL of the web application (http://app.docs.test)');
    }
  });
});

// ─── accepted logins ────────────────────────────────────────────────────────────────────────────────

describe('acsURL accepts a signed response', () => {
  it('creates the user, adds them with the default role and team as an SSO member, and hands the browser a working token', async () => {
    const { provider, organization, team } = await ssoOrganization();
    const email = emailAt();
    const { destination, token, organization: organizationOfLogin } = await logIn(provider, email.toUpperCase());
    expect(`${destination.origin}${destination.pathname}`).toBe(`${APP_URL}/`);
    expect(organizationOfLogin).toBe(organization.id);
    expect(token).toMatch(/^dp_/);

    const em = server.em();
    const user = await em.findOneOrFail(User, { email });
    expect(user.displayName).toBe(email.split('@')[0]);
    expect(await em.findOneOrFail(Member, { organization: organization.id, user: user.id })).toMatchObject({ role: 'edit', sso: true, disabled: false });
    expect(await em.findOneOrFail(TeamMember, { team: team.id, user: user.id })).toMatchObject({ role: 'member', organization: organization.id });
    expect(await em.findOneOrFail(ApiToken, { user: user.id })).toMatchObject({ label: 'SSO: Okta', revokedAt: null });

    const caller = callerFor(server, user, token);
    const me = await caller.rest('GET', '/v1/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, email });
    const org = await caller.rest('GET', `/v1/orgs/${organization.id}`);
    expect(org.status).toBe(200);
    expect(org.body.permissions.createContent).toBe(false);
    // The redirect carrying the token is logged without its Location.
    expect(logLines.join('')).toContain(`"url":"${pathOf(provider.service.acsURL)}"`);
    expect(logLines.join('')).not.toContain(token);
  });

  it('takes the name from the assertion and the destination from returnTo', async () => {
    const { provider } = await ssoOrganization();
    const request = await authnRequest(provider, `?returnTo=${encodeURIComponent('/spaces/abc?tab=1#old')}`);
    const email = emailAt();
    const xml = answer(provider, request.id, email, { attributes: { displayName: 'Grace Hopper' } });
    const res = await post(provider, signSaml(xml, idp));
    expect(res.status).toBe(303);
    expect(res.location).toMatch(new RegExp(`^${APP_URL}/spaces/abc\\?tab=1#token=dp_[\\w-]+&organization=\\w+$`));
    expect((await server.em().findOneOrFail(User, { email })).displayName).toBe('Grace Hopper');
  });

  it('accepts a response signed as a whole instead of its assertion', async () => {
    const { provider } = await ssoOrganization();
    const request = await authnRequest(provider);
    const res = await post(provider, signSaml(answer(provider, request.id, emailAt()), idp, 'Response'));
    expect(res.status, JSON.stringify(res.body)).toBe(303);
  });

  it('signs in an existing member without changing their role or teams, and marks them as SSO', async () => {
    const { provider, organization, team } = await ssoOrganization();
    const member = await newMember(server, organization.id, 'read');
    const { token } = await logIn(provider, member.user.email);
    const em = server.em();
    expect(await em.findOneOrFail(Member, { organization: organization.id, user: member.user.id })).toMatchObject({ role: 'read', sso: true });
    expect(await em.count(TeamMember, { team: team.id, user: member.user.id })).toBe(0);
    expect(await em.count(User, { email: member.user.email })).toBe(1);
    expect((await callerFor(server, member.user, token).rest('GET', '/v1/user')).body.id).toBe(member.user.id);
  });

  it('adds an existing user of another organization as a new member; a provider without team or role makes guests', async () => {
    const { provider, organization } = await ssoOrganization({ defaultTeam: null, defaultRole: null });
    const outsider: Caller = await newUser(server);
    await logIn(provider, outsider.user.email);
    expect(await server.em().findOneOrFail(Member, { organization: organization.id, user: outsider.user.id })).toMatchObject({ role: null, sso: true });
    expect(await server.em().count(TeamMember, { user: outsider.user.id })).toBe(0);
  });

  it('refuses a disabled member with 403 and issues no token', async () => {
    const { provider, organization } = await ssoOrganization();
    const member = await newMember(server, organization.id, 'edit');
    await server.em().nativeUpdate(Member, { organization: organization.id, user: member.user.id }, { disabled: true });
    const request = await authnRequest(provider);
    const res = await post(provider, signSaml(answer(provider, request.id, member.user.email), idp));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: { code: 403, message: 'This member is disabled in the organization' } });
    expect(await server.em().count(ApiToken, { user: member.user.id })).toBe(1);
  });
});

// ─── refused responses ──────────────────────────────────────────────────────────────────────────────

describe('acsURL refuses forged, stale and replayed responses', () => {
  it('refuses a response changed after signing (tampered e-mail)', async () => {
    const { provider } = await ssoOrganization();
    const request = await authnRequest(provider);
    const email = emailAt();
    const signed = signSaml(answer(provider, request.id, email), idp);
    const tampered = signed.replaceAll(email, 'ceo@corp.example.com');
    expect(tampered).not.toBe(signed);
    refusal(await post(provider, tampered), /signature/i);
    expect(await server.em().count(User, { email: 'ceo@corp.example.com' })).toBe(0);
  });

  it('refuses a response signed with another key, even one that names its own certificate', async () => {
    const { provider } = await ssoOrganization();
    const request = await authnRequest(provider);
    refusal(await post(provider, signSaml(answer(provider, request.id, emailAt()), intruder)), /signature/i);
  });

  it('refuses an unsigned response', async () => {
    const { provider } = await ssoOrganization();
    const request = await authnRequest(provider);
    refusal(await post(provider, answer(provider, request.id, emailAt())), /signature/i);
  });

  it('refuses an expired response, and one not yet valid, allowing a minute of clock skew', async () => {
    const { provider } = await ssoOrganization();
    // Valid until issuedAt + 5 min: 5 min 59 s later it is still accepted (skew), 6 min later no more.
    const late = await authnRequest(provider);
    const issuedAt = server.clock.now();
    const lateXml = signSaml(answer(provider, late.id, emailAt(), { issuedAt }), idp);
    server.clock.advance(6 * MINUTE);
    // The bearer's SubjectConfirmationData carries the same window and is checked first.
    refusal(await post(provider, lateXml), /No valid subject confirmation/);

    const early = await authnRequest(provider);
    const future = new Date(server.clock.now().getTime() + 3 * MINUTE);
    refusal(await post(provider, signSaml(answer(provider, early.id, emailAt(), { issuedAt: future }), idp)), /not yet valid/);

    const onTime = await authnRequest(provider);
    const justInTime = signSaml(answer(provider, onTime.id, emailAt()), idp);
    server.clock.advance(5 * MINUTE + 59_000);
    expect((await post(provider, justInTime)).status).toBe(303);
  });

  it('refuses a replayed response; what it used up stays in the database', async () => {
    const { provider } = await ssoOrganization();
    const request = await authnRequest(provider);
    const signed = signSaml(answer(provider, request.id, emailAt()), idp);
    expect((await post(provider, signed)).status).toBe(303);
    refusal(await post(provider, signed), /InResponseTo/);
    // The accepted assertion is remembered in the database until it expires.
    expect(await server.em().count(SamlConsumedAssertion, { provider: provider.id })).toBe(1);
    expect(await server.em().count(SamlRequest, { id: request.id })).toBe(0);
  });

  it('refuses an assertion accepted before, even in answer to a new request', async () => {
    const { provider } = await ssoOrganization();
    const assertionId = newSamlId();
    const first = await authnRequest(provider);
    expect((await post(provider, signSaml(answer(provider, first.id, emailAt(), { assertionId }), idp))).status).toBe(303);
    const second = await authnRequest(provider);
    refusal(await post(provider, signSaml(answer(provider, second.id, emailAt(), { assertionId }), idp)), /assertion was already used/);
  });

  it('refuses a response for another audience', async () => {
    const { provider } = await ssoOrganization();
    const request = await authnRequest(provider);
    const xml = answer(provider, request.id, emailAt(), { audience: 'https://other-sp.example.com/metadata' });
    refusal(await post(provider, signSaml(xml, idp)), /audience mismatch/);
  });

  it('refuses a response from another issuer', async () => {
    const { provider } = await ssoOrganization();
    const request = await authnRequest(provider);
    refusal(await post(provider, signSaml(answer(provider, request.id, emailAt(), { issuer: 'https://other-idp.example.com' }), idp)), /issuer/);
  });

  it('refuses a response to a request this server never sent, sent for another provider, or sent too long ago', async () => {
    const { provider } = await ssoOrganization();
    refusal(await post(provider, signSaml(answer(provider, newSamlId(), emailAt()), idp)), /InResponseTo is not valid/);

    const { provider: other } = await ssoOrganization();
    const foreign = await authnRequest(other);
    refusal(await post(provider, signSaml(answer(provider, foreign.id, emailAt()), idp)), /InResponseTo is not valid/);

    const stale = await authnRequest(provider);
    server.clock.advance(61 * MINUTE);
    refusal(await post(provider, signSaml(answer(provider, stale.id, emailAt()), idp)), /InResponseTo is not valid/);
  });

  it('refuses a response without an e-mail address', async () => {
    const { provider } = await ssoOrganization();
    const request = await authnRequest(provider);
    const xml = answer(provider, request.id, 'not-an-address').replace(/<saml:AttributeStatement>.*<\/saml:AttributeStatement>/, '');
    refusal(await post(provider, signSaml(xml, idp)), /no e-mail address/);
  });

  it('answers 400 without a SAMLResponse and 404 for an unknown provider', async () => {
    const { provider } = await ssoOrganization();
    const res = await fetch(`${server.url}${pathOf(provider.service.acsURL)}`, { method: 'POST', body: new URLSearchParams({ RelayState: 'x' }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 400, message: 'SAMLResponse: is required' } });
    const unknown = await fetch(`${server.url}/saml/nope/acs`, { method: 'POST', body: new URLSearchParams({ SAMLResponse: 'x' }) });
    expect(unknown.status).toBe(404);
  });
});
