import type { EntityManager } from '@mikro-orm/postgresql';
import type { Viewer } from '../auth/viewer.js';
import { organizationLoaders } from '../domain/organizations/loaders.js';
import { memberLoaders } from '../domain/members/loaders.js';
import { userLoaders } from '../domain/users/loaders.js';
import { teamLoaders } from '../domain/teams/loaders.js';
import { grantLoaders } from '../domain/grants/loaders.js';
import { inviteLoaders } from '../domain/invites/loaders.js';
import { collectionLoaders } from '../domain/collections/loaders.js';
import { spaceLoaders } from '../domain/spaces/loaders.js';
import { siteLoaders } from '../domain/sites/loaders.js';
import { samlLoaders } from '../domain/saml/loaders.js';
import { contentLoaders } from '../domain/content/loaders.js';
import { changeRequestLoaders } from '../domain/change-requests/loaders.js';
import { integrationLoaders } from '../domain/integrations/loaders.js';
import { commentLoaders } from '../domain/comments/loaders.js';

/** All DataLoaders of one request. Modules reach loaders only through the context, never directly. */
export function createLoaders(em: EntityManager, viewer: Viewer | null) {
  const spaces = spaceLoaders(em);
  const changeRequests = changeRequestLoaders(em);
  const comments = commentLoaders(em);
  const teams = teamLoaders(em);
  return {
    ...organizationLoaders(em, viewer),
    ...memberLoaders(em),
    ...userLoaders(em),
    ...teams,
    ...grantLoaders(em, teams.teamMembershipsOf),
    ...inviteLoaders(em),
    ...collectionLoaders(em),
    ...spaces,
    ...siteLoaders(em, {
      spaceToRead: spaces.spaceToRead,
      facts: [changeRequests.changeRequestCountsOfLayout, comments.openCommentCountsOfLayout],
    }),
    ...samlLoaders(em),
    ...contentLoaders(em),
    ...changeRequests,
    ...integrationLoaders(em),
    ...comments,
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
