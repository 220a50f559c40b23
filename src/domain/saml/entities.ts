import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { Organization } from '../organizations/index.js';
import { Team } from '../teams/index.js';

/**
 * A SAML identity provider through which people sign in to an organization. It can start logins once
 * `entityID`, `ssoURL` and `certificate` are all set (`status` active); until then it is pending.
 */
export const SamlProvider = defineEntity({
  name: 'SamlProvider',
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    label: p.string().length(30),
    /** The identity provider's entity ID: the Issuer its assertions must carry. */
    entityID: p.string().length(1024).nullable(),
    /** Where the identity provider receives AuthnRequests (HTTP-Redirect binding). */
    ssoURL: p.string().length(2048).nullable(),
    /** The identity provider's signing certificate (PEM). */
    certificate: p.text().nullable(),
    /** Team that people joining through this provider are added to; a deleted team leaves none. */
    defaultTeam: () => p.manyToOne(Team).mapToPk().nullable().deleteRule('set null').index(),
    /** Role of people joining through this provider; null means guest. */
    defaultRole: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
/** The managed entity, for the services that change it; reads get the read-only `SamlProviderRow`. */
export type SamlProviderEntity = InferEntity<typeof SamlProvider>;
export type SamlProviderRow = Plain<SamlProviderEntity>;

/**
 * An AuthnRequest this server sent and has not seen answered: a response must name one (InResponseTo)
 * and uses it up. Kept in the database so that any instance can take the answer.
 */
export const SamlRequest = defineEntity({
  name: 'SamlRequest',
  properties: {
    id: p.string().primary(),
    provider: () => p.manyToOne(SamlProvider).mapToPk().deleteRule('cascade').index(),
    /** Where the browser is sent with the new API token. */
    returnTo: p.text(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().index(),
  },
});
export type SamlRequestRow = Plain<InferEntity<typeof SamlRequest>>;

/** An assertion accepted once, remembered until it expires so that it is never accepted again. */
export const SamlConsumedAssertion = defineEntity({
  name: 'SamlConsumedAssertion',
  properties: {
    provider: () => p.manyToOne(SamlProvider).mapToPk().deleteRule('cascade').primary(),
    assertionId: p.string().length(512).primary(),
    expiresAt: p.datetime().index(),
  },
});
export type SamlConsumedAssertionRow = Plain<InferEntity<typeof SamlConsumedAssertion>>;
