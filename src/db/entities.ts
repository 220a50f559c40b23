import { ApiToken, User } from '../domain/users/entities.js';
import { Member, Organization } from '../domain/organizations/entities.js';
import { Collection } from '../domain/collections/entities.js';
import { Space } from '../domain/spaces/entities.js';
import { ContentEntry, ContentFile, ContentNode, FileBlob, PageVersion, Revision } from '../domain/content/entities.js';
import { ChangeRequest } from '../domain/change-requests/entities.js';
import { Comment, CommentReaction, CommentReply } from '../domain/comments/entities.js';
import { Job } from '../jobs/entities.js';
import { ServerSecret } from '../auth/entities.js';
import { InstanceSetting } from '../instances/entities.js';
import { Team, TeamMember } from '../domain/teams/entities.js';
import { ContentGrant } from '../domain/grants/entities.js';
import { SamlConsumedAssertion, SamlProvider, SamlRequest } from '../domain/saml/entities.js';
import { InviteLink } from '../domain/invites/entities.js';
import { TranslationSettings } from '../domain/translations/entities.js';
import { OpenAPISpec } from '../domain/openapi/entities.js';
import { Integration, IntegrationInstallation, IntegrationSiteInstallation, IntegrationSpaceInstallation } from '../domain/integrations/entities.js';
import { SearchIndexedSpace, SearchSection } from '../domain/search/entities.js';
import { ShareLink, Site, SiteAdaptiveSchema, SiteSection, SiteSectionGroup, SiteSpace } from '../domain/sites/entities.js';

/** Every entity the ORM knows; a new area adds its entities here and a migration for them. */
export const entities = [User, ApiToken, Organization, Member, Collection, Space, Revision, Job, ServerSecret, InstanceSetting,
  Site, SiteSectionGroup, SiteSection, SiteSpace, ShareLink, SiteAdaptiveSchema,
  Team, TeamMember, ContentGrant, InviteLink,
  SamlProvider, SamlRequest, SamlConsumedAssertion,
  PageVersion, ContentFile, FileBlob, ContentEntry, ContentNode, ChangeRequest,
  TranslationSettings, OpenAPISpec, Integration, IntegrationInstallation, IntegrationSpaceInstallation, IntegrationSiteInstallation,
  Comment, CommentReply, CommentReaction,
  SearchIndexedSpace, SearchSection];
