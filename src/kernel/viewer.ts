import type { Rows } from './rows.js';

/**
 * Who is calling: the user behind the API token of the request, and the memberships read with the
 * token (some of them when the user belongs to many organizations), which the request's loaders start with.
 */
export type Viewer = { user: Rows['User']; tokenId: string; memberships?: readonly Rows['Member'][] };
