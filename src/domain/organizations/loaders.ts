import type { EntityManager } from '@mikro-orm/postgresql';
import type { Viewer } from '../../auth/viewer.js';
import { rowLoader } from '../../graphql/loader.js';
import { Member, Organization } from './entities.js';

export function organizationLoaders(em: EntityManager, viewer: Viewer | null) {
  return {
    organization: rowLoader((ids: string[]) => em.find(Organization, { id: { $in: ids } }), (o) => o.id),
    /** The viewer's membership per organization id (null when not a member). */
    viewerMembership: rowLoader(
      (organizationIds: string[]) =>
        viewer ? em.find(Member, { user: viewer.user.id, organization: { $in: organizationIds } }) : Promise.resolve([]),
      (m) => m.organization,
    ),
  };
}
