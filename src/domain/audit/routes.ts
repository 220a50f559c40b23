import type { Route } from '../../kernel/rest-route.js';
import { USER } from '../users/index.js';

/** The audit log's REST extra (not in the contract): the auditLog query's filters as query parameters. */
export const auditRoutes: Route[] = [
  {
    operationId: 'listOrganizationAuditLog',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/audit-log',
    status: 200,
    document: `query($organizationId: ID!, $actor: ID, $target: ID, $type: String, $from: DateTime, $to: DateTime, $outcome: String, $page: String, $limit: Int) {
      auditLog(organizationId: $organizationId, actor: $actor, target: $target, type: $type, from: $from, to: $to, outcome: $outcome, page: $page, limit: $limit) {
        items {
          id type organizationId actor { ...UserFields } actorTokenId clientIp door operation outcome target payload occurredAt
        }
        next { page }
      }
    } ${USER}`,
  },
];
