/** The public face of the users area: what other areas and the wiring may use of it. */
export { ApiToken, User } from './entities.js';
export type { UserRow } from './entities.js';
export { USER } from './fragments.js';
export { createUser, findUserByEmail, usersWithEmails, userWithEmail } from './service.js';
export { ApiTokenScopeInput, createApiToken, createdToken, issueViewerApiToken, requestedScope, revokeApiToken } from './tokens.js';
