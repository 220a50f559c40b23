import type { Route } from '../route.js';
import { collectionRoutes } from './collections.js';
import { organizationRoutes } from './organizations.js';
import { memberRoutes } from './members.js';
import { teamRoutes } from './teams.js';
import { inviteRoutes } from './invites.js';
import { spaceRoutes } from './spaces.js';
import { userRoutes } from './users.js';
import { sitesRoutes } from './sites.js';
import { siteSectionsRoutes } from './site-sections.js';
import { siteSpacesRoutes } from './site-spaces.js';
import { samlRoutes } from './saml.js';
import { changeRequestRoutes } from './change-requests.js';
import { insightsRoutes } from './insights.js';
import { translationRoutes } from './translations.js';
import { openAPIRoutes } from './openapi.js';
import { integrationRoutes } from './integrations.js';
import { commentRoutes } from './comments.js';
import { searchRoutes } from './search.js';

/** Every routed REST operation. An operation of the contract that is not here answers 404. */
export const routes: Route[] = [
  ...userRoutes,
  ...organizationRoutes,
  ...memberRoutes,
  ...teamRoutes,
  ...inviteRoutes,
  ...collectionRoutes,
  ...spaceRoutes,
  ...sitesRoutes,
  ...siteSectionsRoutes,
  ...siteSpacesRoutes,
  ...insightsRoutes,
  ...samlRoutes,
  ...changeRequestRoutes,
  ...translationRoutes,
  ...openAPIRoutes,
  ...integrationRoutes,
  ...commentRoutes,
  ...searchRoutes,
];
