import type { Route } from '../../kernel/rest-route.js';
import { TEAM } from '../teams/index.js';
import { USER } from '../users/index.js';

/*
 * Roles on spaces and collections over REST, as the current official client (@gitbook/api 0.202.0)
 * calls them: lists of the users' and teams' grants, a role set or taken back (null) per user or team,
 * several given at once, and every member's resulting role on a space or collection.
 */

type On = { path: string; id: string; field: 'Space' | 'Collection'; names: Record<string, string> };

function routesOn({ path, id, field, names }: On): Route[] {
  const target = `${id}: $${id}`;
  const grants = `${field.toLowerCase()}Grants`;
  return [
    {
      operationId: names.invite,
      method: 'POST',
      path: `${path}/permissions`,
      status: 204,
      body: 'input',
      document: `mutation($${id}: ID!, $input: InviteToContentInput!) { inviteTo${field}(${target}, input: $input) }`,
    },
    {
      operationId: names.users,
      method: 'GET',
      path: `${path}/permissions/users`,
      status: 200,
      document: `query($${id}: ID!, $page: String, $limit: Int) {
        ${grants}(${target}, to: USER, page: $page, limit: $limit) { items { permission: role user { ...UserFields } } count next { page } }
      } ${USER}`,
    },
    {
      operationId: names.teams,
      method: 'GET',
      path: `${path}/permissions/teams`,
      status: 200,
      document: `query($${id}: ID!, $page: String, $limit: Int) {
        ${grants}(${target}, to: TEAM, page: $page, limit: $limit) { items { permission: role team { ...TeamFields } } count next { page } }
      } ${TEAM}`,
    },
    ...(['user', 'team'] as const).flatMap((who): Route[] => [
      {
        operationId: names[`update_${who}`],
        method: 'PATCH',
        path: `${path}/permissions/${who}s/{${who}Id}`,
        status: 204,
        body: 'input',
        document: `mutation($${id}: ID!, $${who}Id: ID!, $input: SetRoleInput!) { set${field}Role(${target}, ${who}: $${who}Id, input: $input) }`,
      },
      {
        operationId: names[`remove_${who}`],
        method: 'DELETE',
        path: `${path}/permissions/${who}s/{${who}Id}`,
        status: 204,
        document: `mutation($${id}: ID!, $${who}Id: ID!) { revoke${field}Role(${target}, input: { ${who}: $${who}Id }) }`,
      },
    ]),
    {
      operationId: names.aggregate,
      method: 'GET',
      path: `${path}/permissions/aggregate`,
      status: 200,
      document: `query($${id}: ID!, $role: Role, $page: String, $limit: Int) {
        ${field.toLowerCase()}Permissions(${target}, role: $role, page: $page, limit: $limit) { items { permission user { ...UserFields } } count next { page } }
      } ${USER}`,
    },
  ];
}

export const grantRoutes: Route[] = [
  ...routesOn({
    path: '/v1/spaces/{spaceId}',
    id: 'spaceId',
    field: 'Space',
    names: {
      invite: 'inviteToSpace',
      users: 'listUserPermissionsInSpace',
      teams: 'listTeamPermissionsInSpace',
      update_user: 'updateUserPermissionInSpace',
      remove_user: 'removeUserFromSpace',
      update_team: 'updateTeamPermissionInSpace',
      remove_team: 'removeTeamFromSpace',
      aggregate: 'listPermissionsAggregateInSpace',
    },
  }),
  ...routesOn({
    path: '/v1/collections/{collectionId}',
    id: 'collectionId',
    field: 'Collection',
    names: {
      invite: 'inviteToCollection',
      users: 'listUserPermissionsInCollection',
      teams: 'listTeamPermissionsInCollection',
      update_user: 'updateUserPermissionInCollection',
      remove_user: 'removeUserFromCollection',
      update_team: 'updateTeamPermissionInCollection',
      remove_team: 'removeTeamFromCollection',
      aggregate: 'listPermissionsAggregateInCollection',
    },
  }),
];
