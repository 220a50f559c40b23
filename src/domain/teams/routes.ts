import type { Route } from '../../kernel/rest-route.js';
import { MEMBER } from '../members/index.js';
import { TEAM } from './fragments.js';

const TEAMS_PATH = '/v1/orgs/{organizationId}/teams';
const TEAM_PATH = `${TEAMS_PATH}/{teamId}`;

export const teamRoutes: Route[] = [
  {
    operationId: 'listTeamsInOrganizationById',
    method: 'GET',
    path: TEAMS_PATH,
    status: 200,
    document: `query($organizationId: ID!, $owner: ID, $title: String, $page: String, $limit: Int) {
      teams(organizationId: $organizationId, owner: $owner, title: $title, page: $page, limit: $limit) { items { ...TeamFields } count next { page } }
    } ${TEAM}`,
  },
  {
    operationId: 'createOrganizationTeam',
    method: 'PUT',
    path: TEAMS_PATH,
    status: 201,
    body: 'input',
    document: `mutation($organizationId: ID!, $input: CreateTeamInput!) { createTeam(organizationId: $organizationId, input: $input) { ...TeamFields } } ${TEAM}`,
  },
  {
    operationId: 'getTeamInOrganizationById',
    method: 'GET',
    path: TEAM_PATH,
    status: 200,
    document: `query($organizationId: ID!, $teamId: ID!) { team(organizationId: $organizationId, teamId: $teamId) { ...TeamFields } } ${TEAM}`,
  },
  {
    operationId: 'updateTeamInOrganizationById',
    method: 'PATCH',
    path: TEAM_PATH,
    status: 200,
    body: 'input',
    document: `mutation($organizationId: ID!, $teamId: ID!, $input: UpdateTeamInput!, $ifMatch: String) {
      updateTeam(organizationId: $organizationId, teamId: $teamId, input: $input, ifMatch: $ifMatch) { ...TeamFields }
    } ${TEAM}`,
  },
  {
    operationId: 'removeTeamFromOrganizationById',
    method: 'DELETE',
    path: TEAM_PATH,
    status: 204,
    document: `mutation($organizationId: ID!, $teamId: ID!, $ifMatch: String) { deleteTeam(organizationId: $organizationId, teamId: $teamId, ifMatch: $ifMatch) }`,
  },
  {
    operationId: 'listTeamMembersInOrganizationById',
    method: 'GET',
    path: `${TEAM_PATH}/members`,
    status: 200,
    document: `query($organizationId: ID!, $teamId: ID!, $page: String, $limit: Int) {
      teamMembers(organizationId: $organizationId, teamId: $teamId, page: $page, limit: $limit) {
        items { organization { ...MemberFields } team { role } permissions { view } } count next { page }
      }
    } ${MEMBER}`,
  },
  {
    operationId: 'updateMembersInOrganizationTeam',
    method: 'PUT',
    path: `${TEAM_PATH}/members`,
    status: 204,
    body: 'input',
    document: `mutation($organizationId: ID!, $teamId: ID!, $input: UpdateTeamMembersInput!) {
      updateTeamMembers(organizationId: $organizationId, teamId: $teamId, input: $input)
    }`,
  },
  {
    operationId: 'addMemberToOrganizationTeamById',
    method: 'PUT',
    path: `${TEAM_PATH}/members/{userId}`,
    status: 204,
    optionalBody: true,
    document: `mutation($organizationId: ID!, $teamId: ID!, $userId: ID!, $role: TeamRole) {
      addTeamMember(organizationId: $organizationId, teamId: $teamId, userId: $userId, role: $role) { team { role } }
    }`,
  },
  {
    operationId: 'deleteMemberFromOrganizationTeamById',
    method: 'DELETE',
    path: `${TEAM_PATH}/members/{userId}`,
    status: 204,
    document: `mutation($organizationId: ID!, $teamId: ID!, $userId: ID!) {
      removeTeamMember(organizationId: $organizationId, teamId: $teamId, userId: $userId)
    }`,
  },
];
