import type { Route } from '../../kernel/rest-route.js';
import { SPACE } from '../spaces/index.js';
import { TEAM } from '../teams/index.js';
import { MEMBER } from './fragments.js';

const MEMBER_PATH = '/v1/orgs/{organizationId}/members/{userId}';

export const memberRoutes: Route[] = [
  {
    operationId: 'listMembersInOrganizationById',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members',
    status: 200,
    document: `query($organizationId: ID!, $role: String, $search: String, $sort: String, $order: String, $page: String, $limit: Int) {
      members(organizationId: $organizationId, role: $role, search: $search, sort: $sort, order: $order, page: $page, limit: $limit) {
        items { ...MemberFields } count next { page }
      }
    } ${MEMBER}`,
  },
  {
    operationId: 'getMemberInOrganizationById',
    method: 'GET',
    path: MEMBER_PATH,
    status: 200,
    document: `query($organizationId: ID!, $userId: ID!) { member(organizationId: $organizationId, userId: $userId) { ...MemberFields } } ${MEMBER}`,
  },
  {
    operationId: 'updateMemberInOrganizationById',
    method: 'PATCH',
    path: MEMBER_PATH,
    status: 200,
    body: 'input',
    document: `mutation($organizationId: ID!, $userId: ID!, $input: UpdateMemberInput!, $ifMatch: String) {
      updateMember(organizationId: $organizationId, userId: $userId, input: $input, ifMatch: $ifMatch) { ...MemberFields }
    } ${MEMBER}`,
  },
  {
    operationId: 'removeMemberFromOrganizationById',
    method: 'DELETE',
    path: MEMBER_PATH,
    status: 204,
    document: `mutation($organizationId: ID!, $userId: ID!, $ifMatch: String) { removeMember(organizationId: $organizationId, userId: $userId, ifMatch: $ifMatch) }`,
  },
  {
    operationId: 'setUserAsSSOMemberForOrganization',
    method: 'POST',
    path: `${MEMBER_PATH}/sso`,
    status: 200,
    document: `mutation($organizationId: ID!, $userId: ID!) {
      markMemberAsSSO(organizationId: $organizationId, userId: $userId) { ...MemberFields }
    } ${MEMBER}`,
  },
  {
    operationId: 'listSpacesForOrganizationMember',
    method: 'GET',
    path: `${MEMBER_PATH}/spaces`,
    status: 200,
    document: `query($organizationId: ID!, $userId: ID!, $order: String, $page: String, $limit: Int) {
      memberSpaces(organizationId: $organizationId, userId: $userId, order: $order, page: $page, limit: $limit) {
        items { permission space { ...SpaceFields } } count next { page }
      }
    } ${SPACE}`,
  },
  {
    operationId: 'listTeamsForOrganizationMember',
    method: 'GET',
    path: `${MEMBER_PATH}/teams`,
    status: 200,
    document: `query($organizationId: ID!, $userId: ID!, $title: String, $page: String, $limit: Int) {
      memberTeams(organizationId: $organizationId, userId: $userId, title: $title, page: $page, limit: $limit) {
        items { team { ...TeamFields } member { role } } count next { page }
      }
    } ${TEAM}`,
  },
];
