import type { Route } from '../../kernel/rest-route.js';
import { MEMBER } from '../members/index.js';
import { INVITE_LINK } from './fragments.js';

const INVITE_PATH = '/v1/orgs/{organizationId}/link-invites/{inviteId}';

/**
 * The contract's invite-link operations, and those the current client (0.202.0) adds: listing the
 * organization's links to itself, creating a link, joining with one, inviting users by e-mail address.
 */
export const inviteRoutes: Route[] = [
  {
    operationId: 'listOrganizationInviteLinks',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/link-invites',
    status: 200,
    document: `query($organizationId: ID!, $page: String, $limit: Int) {
      inviteLinks(organizationId: $organizationId, to: ORGANIZATION, page: $page, limit: $limit) { items { ...InviteLinkFields } count next { page } }
    } ${INVITE_LINK}`,
  },
  {
    operationId: 'createOrganizationInvite',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/link-invites',
    status: 201,
    body: 'input',
    document: `mutation($organizationId: ID!, $input: CreateInviteLinkInput!) {
      createInviteLink(organizationId: $organizationId, input: $input) { ...InviteLinkFields }
    } ${INVITE_LINK}`,
  },
  {
    operationId: 'inviteUsersToOrganization',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/invites',
    status: 200,
    body: 'input',
    document: `mutation($organizationId: ID!, $input: InviteUsersToOrganizationInput!) {
      inviteUsersToOrganization(organizationId: $organizationId, input: $input) { users invited }
    }`,
  },
  {
    operationId: 'joinOrganizationWithInvite',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/invites/{inviteId}',
    status: 200,
    document: `mutation($organizationId: ID!, $inviteId: ID!) { joinOrganizationWithInvite(organizationId: $organizationId, inviteId: $inviteId) { ...MemberFields } } ${MEMBER}`,
  },
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
    document: `mutation($organizationId: ID!, $inviteId: ID!, $input: UpdateInviteLinkInput!, $ifMatch: String) {
      updateInviteLink(organizationId: $organizationId, inviteId: $inviteId, input: $input, ifMatch: $ifMatch) { ...InviteLinkFields }
    } ${INVITE_LINK}`,
  },
  {
    operationId: 'deleteOrganizationInviteById',
    method: 'DELETE',
    path: INVITE_PATH,
    status: 204,
    document: `mutation($organizationId: ID!, $inviteId: ID!, $ifMatch: String) { deleteInviteLink(organizationId: $organizationId, inviteId: $inviteId, ifMatch: $ifMatch) }`,
  },
];
