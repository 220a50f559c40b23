import { type Viewer } from '../../kernel/viewer.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import sql from 'sql-template-tag';
import { rowLoader } from '../../kernel/loader.js';
import { answersByKey } from '../../db/answers-by-key.js';
import { columnOf, plainColumns, readCurrentRows, rowsWhereIn, tableOf, type Plain } from '../../db/statements.js';
import { Member, Organization, type MemberRow, type OrganizationRow } from './entities.js';
import { viewerIsMemberOf } from '../../auth/visibility.js';

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
    /** Organizations as plain rows (a change loads the organization's entity itself). */
    organization: rowLoader(
      (ids: string[]) => rowsWhereIn(em, Organization, 'id', ids),
      (o) => o.id,
    ),
    /**
     * Organizations as the database writes their answers, by selection (organizations/reads.ts and the
     * lists other areas declare), each with its row for the guard; answers only for members (the guard's rule).
     */
    organizationAnswerOf: answersByKey<OrganizationRow>(em, 'Organization', (organization) => viewerIsMemberOf(viewer, sql`${organization}.id`)),
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
