import type { Route } from '../../kernel/rest-route.js';
import { USER } from './fragments.js';

export const userRoutes: Route[] = [
  {
    operationId: 'getAuthenticatedUser',
    method: 'GET',
    path: '/v1/user',
    status: 200,
    document: `query { viewer { ...UserFields } } ${USER}`,
  },
  {
    operationId: 'getUserById',
    method: 'GET',
    path: '/v1/users/{userId}',
    status: 200,
    document: `query($userId: ID!) { user(id: $userId) { ...UserFields } } ${USER}`,
  },
  {
    operationId: 'updateUserById',
    method: 'PATCH',
    path: '/v1/users/{userId}',
    status: 200,
    body: 'input',
    document: `mutation($userId: ID!, $input: UpdateUserInput!, $ifMatch: String) { updateUser(id: $userId, input: $input, ifMatch: $ifMatch) { ...UserFields } } ${USER}`,
  },
];
