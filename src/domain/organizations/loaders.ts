import { type Viewer } from '../../kernel/viewer.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { rowLoader } from '../../kernel/loader.js';
import { answersByKey } from '../../db/answers-by-key.js';
import { columnOf, plainColumns, readCurrentRows, tableOf, type Plain } from '../../db/statements.js';
import { Member, Organization, type MemberRow } from './entities.js';

export function organizationLoaders(em: EntityManager, viewer: Viewer | null) {
  const viewerMembership = rowLoader(
    (organizationIds: string[]) =>
      viewer
        ? // On the primary (never a replica): a removed member loses access on the very next request.
          readCurrentRows<Plain<MemberRow>>(
            em,
            sql`select ${plainColumns(em, Member)} from ${tableOf(em, Member)} where ${columnOf(em, Member, 'user')} = ${viewer.user.id} and ${columnOf(em, Member, 'organization')} = any(${organizationIds})`,
          )
        : Promise.resolve([]),
    (m) => m.organization,
  );
  // Read with the token: forgotten (and then read again) after a change of memberships in the request.
  for (const membership of viewer?.memberships ?? []) viewerMembership.remember(membership.organization, membership);
  return {
    organization: rowLoader(
      (ids: string[]) => em.find(Organization, { id: { $in: ids } }),
      (o) => o.id,
    ),
    /** Organizations written whole by the database, per shape of the answer (db/answers-by-key.ts). */
    organizationAnswerOf: answersByKey(em, 'Organization'),
    /**
     * The viewer's membership per organization id (null when not a member), as plain rows: every
     * request of a member reads it; a change loads the entity itself.
     */
    viewerMembership,
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof organizationLoaders> {}
}
