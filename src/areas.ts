import { administrationArea } from './domain/administration/index.js';
import { auditArea } from './domain/audit/index.js';
import { changeRequestsArea } from './domain/change-requests/index.js';
import { collectionsArea } from './domain/collections/index.js';
import { commentsArea } from './domain/comments/index.js';
import { contentArea } from './domain/content/index.js';
import { eventsArea } from './domain/events/index.js';
import { grantsArea } from './domain/grants/index.js';
import { insightsArea } from './domain/insights/index.js';
import { integrationsArea } from './domain/integrations/index.js';
import { invitesArea } from './domain/invites/index.js';
import { liveArea } from './domain/live/index.js';
import { membersArea } from './domain/members/index.js';
import { openAPIArea } from './domain/openapi/index.js';
import { organizationsArea } from './domain/organizations/index.js';
import { samlArea } from './domain/saml/index.js';
import { searchArea } from './domain/search/index.js';
import { siteSectionsArea } from './domain/sites/sections/index.js';
import { shareLinksArea } from './domain/sites/share-links/index.js';
import { siteArea } from './domain/sites/site/index.js';
import { siteSpacesArea } from './domain/sites/site-spaces/index.js';
import { spacesArea } from './domain/spaces/index.js';
import { teamsArea } from './domain/teams/index.js';
import { translationsArea } from './domain/translations/index.js';
import { usersArea } from './domain/users/index.js';
import { webhooksArea } from './domain/webhooks/index.js';

/**
 * Every area of the domain (each declared by its folder, see domain/common/area.ts), in the order the
 * schema lists their root fields and the REST route table their operations. The schema, the request's
 * loaders and lists, the ORM's entities, the route table and the job handlers are all made from this list.
 */
export const areas = [
  usersArea,
  administrationArea,
  organizationsArea,
  membersArea,
  teamsArea,
  invitesArea,
  grantsArea,
  collectionsArea,
  spacesArea,
  siteArea,
  siteSectionsArea,
  siteSpacesArea,
  shareLinksArea,
  insightsArea,
  samlArea,
  searchArea,
  changeRequestsArea,
  contentArea,
  translationsArea,
  openAPIArea,
  integrationsArea,
  commentsArea,
  eventsArea,
  auditArea,
  liveArea,
  webhooksArea,
] as const;
