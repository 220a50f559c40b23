import type { Route } from '../../kernel/rest-route.js';
import { INVITE_LINK } from './fragments.js';

const INVITE_PATH = '/v1/orgs/{organizationId}/link-invites/{inviteId}';

/**
 * The contract's invite-link operations. Listing and creating links and joining with one are
 * reference operations outside the contract (operations.tsv), served by GraphQL only:
 * `inviteLinks`, `createInviteLink`, `joinOrganizationWithInvite`.
 */
export const inviteRoutes: Route[] = [
  {
    operationId: 'getOrganizationInviteLink',
    method: 'GET',
    path: INVITE_PATH,
    status: 200,
    document: `query($organizationId: ID!, $inviteId: ID!) {
      inviteLink(organizationId: $organizationId, inviteId: $inviteId) { ...InviteLinkFields }
    } ${INVITE_LINK}`,
  },
  {
    operationId: 'updateOrganizationInviteById',
    method: 'PATCH',
    path: INVITE_PATH,
    status: 200,
    body: 'input',
    document: `mutation($organizationId: ID!, $inviteId: ID!, $input: UpdateInviteLinkInput!) {
      updateInviteLink(organizationId: $organizationId, inviteId: $inviteId, input: $input) { ...InviteLinkFields }
    } ${INVITE_LINK}`,
  },
  {
    operationId: 'deleteOrganizationInviteById',
    method: 'DELETE',
    path: INVITE_PATH,
    status: 204,
    document: `mutation($organizationId: ID!, $inviteId: ID!) { deleteInviteLink(organizationId: $organizationId, inviteId: $inviteId) }`,
  },
];
