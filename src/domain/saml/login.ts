import type { EntityManager } from '@mikro-orm/postgresql';
import type { Profile } from '@node-saml/node-saml';
import { z } from 'zod';
import { connectionFailureOf } from '../../db/connection-errors.js';
import type { AppDeps } from '../../kernel/context.js';
import { badRequest, conflict, forbidden, notFound, unauthenticated } from '../../kernel/errors.js';
import { recordServerEvent } from '../../events/record.js';
import { memberPayload, memberTarget } from '../organizations/index.js';
import { Member } from '../organizations/index.js';
import { TeamMember } from '../teams/index.js';
import { createApiToken, userWithEmail } from '../users/index.js';
import { SamlProvider } from './entities.js';
import { forgetExpired, rememberAssertion, SamlRequestStore } from './requests.js';
import { CLOCK_SKEW_MS, isActive, signingKey, type ActiveSamlProvider } from './service-provider.js';

/** Attributes that carry the e-mail address, in order of preference (after node-saml's `email`/`mail`). */
const EMAIL_ATTRIBUTES = ['email', 'mail', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'];
const NAME_ATTRIBUTES = ['displayName', 'http://schemas.microsoft.com/identity/claims/displayname', 'name'];

const emailAddress = z.string().trim().toLowerCase().pipe(z.email());

const refused = (reason: string) => unauthenticated(`SAML response refused: ${reason}`);

async function activeProvider(em: EntityManager, providerId: string): Promise<ActiveSamlProvider> {
  const provider = await em.findOne(SamlProvider, { id: providerId });
  if (!provider) throw notFound('SAML provider');
  if (!isActive(provider)) throw conflict('SAML provider is not configured yet: it needs entityID, ssoURL and certificate');
  return provider;
}

/** Where to send the browser after login: a URL of the web application (APP_URL), its root by default. */
function returnTarget(returnTo: string | undefined, appUrl: string): string {
  const app = new URL(`${appUrl}/`);
  if (!returnTo) return app.href;
  let target: URL;
  try {
    target = new URL(returnTo, app);
  } catch {
    throw badRequest('returnTo: must be a URL');
  }
  // The token travels to this URL: never to another site.
  if (target.origin !== app.origin) throw badRequest(`returnTo: must be a URL of the web application (${app.origin})`);
  target.hash = '';
  return target.href;
}

/**
 * Begins a login through a provider: the identity provider's URL carrying a new AuthnRequest signed
 * with the server's key (HTTP-Redirect binding). The request is remembered with `returnTo`.
 */
export async function startLogin(deps: AppDeps, providerId: string, returnTo?: string): Promise<string> {
  const em = deps.orm.em.fork();
  const provider = await activeProvider(em, providerId);
  const target = returnTarget(returnTo, deps.config.appUrl);
  await forgetExpired(em, deps.clock.now());
  const key = await signingKey(em, deps.clock, deps.config);
  const requests = new SamlRequestStore(em, deps.clock, provider.id, target);
  const { serviceProvider } = await import('./saml-protocol.js');
  return serviceProvider(provider, key, requests, deps.clock, deps.config).getAuthorizeUrlAsync('', undefined, {});
}

function firstString(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() ? first.trim() : undefined;
}

/** The person's e-mail address: an e-mail attribute, else the NameID when it is an address. */
function emailOf(profile: Profile): string | null {
  for (const candidate of [...EMAIL_ATTRIBUTES.map((name) => firstString(profile[name])), profile.nameID]) {
    const parsed = emailAddress.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  return null;
}

function displayNameOf(profile: Profile, email: string): string {
  const named = NAME_ATTRIBUTES.map((name) => firstString(profile[name])).find(Boolean);
  const given = [firstString(profile.givenName), firstString(profile.sn ?? profile.surname)].filter(Boolean).join(' ');
  return (named ?? (given || email.split('@')[0])).slice(0, 255);
}

type VerifiedAssertion = { Assertion: { $: { ID?: string }; Conditions?: { $?: { NotOnOrAfter?: string } }[] } };

/**
 * Finishes a login: verifies the identity provider's response (signature against the provider's
 * certificate, issuer, audience, validity window, InResponseTo of a request of ours not yet answered,
 * assertion not seen before), then finds or creates the user by e-mail, makes them a member (new
 * members get the provider's defaultRole and defaultTeam), marks the membership as SSO and issues an
 * API token. Answers where to send the browser: the request's `returnTo` with the token in its fragment.
 */
export async function finishLogin(deps: AppDeps, providerId: string, samlResponse: unknown): Promise<{ redirect: string; userId: string }> {
  if (typeof samlResponse !== 'string' || !samlResponse) throw badRequest('SAMLResponse: is required');
  const em = deps.orm.em.fork();
  const { clock, config } = deps;
  const provider = await activeProvider(em, providerId);
  await forgetExpired(em, clock.now());
  const requests = new SamlRequestStore(em, clock, provider.id);
  const { serviceProvider } = await import('./saml-protocol.js');
  let profile: Profile | null;
  try {
    ({ profile } = await serviceProvider(provider, await signingKey(em, clock, config), requests, clock, config).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    }));
  } catch (error) {
    // Checking InResponseTo reads our requests in the database: its failure is none of the response's.
    if (connectionFailureOf(error)) throw error;
    throw refused(error instanceof Error ? error.message : 'not a valid SAML response');
  }
  if (!profile) throw refused('it carries no assertion');
  if (profile.issuer !== provider.entityID) throw refused(`issuer "${profile.issuer ?? ''}" is not the provider's entityID`);

  // Read from the verified assertion only, never from the unsigned envelope.
  const assertion = (profile.getAssertion!() as VerifiedAssertion).Assertion;
  const notOnOrAfter = assertion.Conditions?.[0]?.$?.NotOnOrAfter;
  if (!assertion.$.ID || !notOnOrAfter) throw refused('the assertion needs an ID and Conditions with NotOnOrAfter');
  const request = await requests.consume(String(profile.inResponseTo));
  if (!request) throw refused('the request it answers was already answered');
  const email = emailOf(profile);
  if (!email) throw refused('it carries no e-mail address (NameID or an email attribute)');

  const expiresAt = new Date(new Date(notOnOrAfter).getTime() + CLOCK_SKEW_MS);
  return em.transactional(async (tx) => {
    if (!(await rememberAssertion(tx, provider.id, assertion.$.ID!, expiresAt))) throw refused('the assertion was already used');
    const user = await userWithEmail(tx, clock, { email, displayName: displayNameOf(profile, email) });
    await joinThroughProvider(tx, deps, provider, user.id);
    const { secret } = await createApiToken(tx, clock, user.id, `SSO: ${provider.label}`);
    const redirect = new URL(request.returnTo);
    redirect.hash = new URLSearchParams({ token: secret, organization: provider.organization }).toString();
    return { redirect: redirect.href, userId: user.id };
  });
}

/**
 * Makes the user an SSO member of the provider's organization (and of its default team when they join);
 * a disabled member may not sign in. INSERT … ON CONFLICT DO NOTHING: concurrent sign-ins join once.
 */
async function joinThroughProvider(em: EntityManager, deps: AppDeps, provider: ActiveSamlProvider, userId: string) {
  const now = deps.clock.now();
  const { organization } = provider;
  const joined = await em
    .createQueryBuilder(Member)
    .insert({ organization, user: userId, role: provider.defaultRole, joinedAt: now, lastSeenAt: null, disabled: false, sso: true })
    .onConflict(['organization', 'user'])
    .ignore()
    .execute('run');
  if (joined.affectedRows) {
    // The server records it (no request context here), with the user who signed in as the actor.
    const member = { user: userId, role: provider.defaultRole, disabled: false, joinedAt: now, sso: true };
    recordServerEvent(
      em,
      deps.clock,
      {
        type: 'member.joined',
        organizationId: organization,
        target: memberTarget(organization, userId),
        payload: { ...memberPayload(member), samlProvider: provider.id },
      },
      userId,
    );
    if (provider.defaultTeam) {
      await em
        .createQueryBuilder(TeamMember)
        .insert({ team: provider.defaultTeam, user: userId, organization, role: 'member', addedAt: now })
        .onConflict(['team', 'user'])
        .ignore()
        .execute();
    }
    return;
  }
  const member = await em.findOneOrFail(Member, { organization, user: userId }, { refresh: true });
  if (member.disabled) throw forbidden('This member is disabled in the organization');
  member.sso = true;
  await em.flush();
}
