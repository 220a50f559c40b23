import { readModel } from '../../kernel/read-models.js';
import { ROLE_COLUMNS } from '../../kernel/policy.js';

/**
 * How collections are read (kernel/read-models.ts). A collection's own lists (sub-collections, spaces)
 * are pages of their own, read per level with the viewer's filter; they need its organization.
 * Its roles read the columns the policy names (ROLE_COLUMNS).
 */
export const CollectionReads = readModel({
  type: 'Collection',
  entity: 'Collection',
  key: 'id',
  always: ['organization'],
  needs: {
    object: [],
    etag: [],
    urls: [],
    owningOrganization: [],
    parentCollection: ['parent'],
    permissions: ROLE_COLUMNS,
    viewerRole: ROLE_COLUMNS,
    collections: [],
    spaces: [],
  },
});
