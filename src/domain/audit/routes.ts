import type { Route } from '../../kernel/rest-route.js';
import { USER } from '../users/index.js';

/** 0.202.0's fields of an audit event (its details add `schemaVersion` and `payload`). */
const AUDIT_EVENT = /* GraphQL */ `
  fragment AuditEventFields on AuditEvent {
    object id occurredAt action actor { type id label } source target { type id label } urls { location }
  }
`;

/**
 * The audit log over REST: this server's extra (not in the contract), the auditLog query's filters as
 * query parameters; and the current client's (0.202.0) audit events, their details and their actions.
 */
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
  // The current client's (0.202.0) audit events.
  {
    operationId: 'listOrganizationAuditEvents',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/audit-events',
    status: 200,
    document: `query($organizationId: ID!, $action: String, $actor: ID, $target: ID, $from: DateTime, $to: DateTime, $page: String, $limit: Int) {
      auditEvents(organizationId: $organizationId, action: $action, actor: $actor, target: $target, from: $from, to: $to, page: $page, limit: $limit) {
        items { ...AuditEventFields }
        next { page }
      }
    } ${AUDIT_EVENT}`,
  },
  {
    operationId: 'getOrganizationAuditEvent',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/audit-events/{auditEventId}',
    status: 200,
    document: `query($organizationId: ID!, $auditEventId: ID!) {
      auditEvent(organizationId: $organizationId, id: $auditEventId) { ...AuditEventFields schemaVersion payload }
    } ${AUDIT_EVENT}`,
  },
  {
    operationId: 'listOrganizationAuditEventActions',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/audit-event-actions',
    status: 200,
    document: `query($organizationId: ID!) { auditEventActions(organizationId: $organizationId) { items { object id label } } }`,
  },
];
