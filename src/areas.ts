import { administrationArea } from './domain/administration/area.js';
import { auditArea } from './domain/audit/area.js';
import { changeRequestsArea } from './domain/change-requests/area.js';
import { collectionsArea } from './domain/collections/area.js';
import { commentsArea } from './domain/comments/area.js';
import { contentArea } from './domain/content/area.js';
import { eventsArea } from './domain/events/area.js';
import { grantsArea } from './domain/grants/area.js';
import { insightsArea } from './domain/insights/area.js';
import { integrationsArea } from './domain/integrations/area.js';
import { invitesArea } from './domain/invites/area.js';
import { liveArea } from './domain/live/area.js';
import { membersArea } from './domain/members/area.js';
import { openAPIArea } from './domain/openapi/area.js';
import { organizationsArea } from './domain/organizations/area.js';
import { samlArea } from './domain/saml/area.js';
import { searchArea } from './domain/search/area.js';
import { siteSectionsArea } from './domain/sites/sections/area.js';
import { shareLinksArea } from './domain/sites/share-links/area.js';
import { siteArea } from './domain/sites/site/area.js';
import { siteSpacesArea } from './domain/sites/site-spaces/area.js';
import { spacesArea } from './domain/spaces/area.js';
import { teamsArea } from './domain/teams/area.js';
import { translationsArea } from './domain/translations/area.js';
import { usersArea } from './domain/users/area.js';
import { urlsArea } from './domain/urls/area.js';
import { webhooksArea } from './domain/webhooks/area.js';
import type { Entities } from './db/entities.js';
import type { Loaders } from './kernel/request-loaders.js';
import type { Lists } from './kernel/request-lists.js';

/**
 * Every area of the domain (each declared by its folder, see kernel/area.ts), in the order the
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
  urlsArea,
] as const;

/** The areas' entities, which the ORM is opened with (`openOrm`). */
export const areaEntities: Entities = areas.flatMap((area): Entities => ('entities' in area ? area.entities : []));

type Made<Key extends 'loaders' | 'lists'> = Intersection<
  (typeof areas)[number] extends infer A ? (A extends { [K in Key]: (...args: never[]) => infer L } ? L : never) : never
>;
type Intersection<U> = (U extends unknown ? (all: U) => void : never) extends (all: infer I) => void ? I : never;
/** Checked by the compiler: the areas' factories together make every loader and list their types name. */
export const everyLoaderAndListIsMade: [Made<'loaders'> extends Loaders ? true : never, Made<'lists'> extends Lists ? true : never] = [true, true];
