import sql from 'sql-template-tag';
import { readModel } from '../../kernel/read-models.js';

/**
 * How organizations are read (kernel/read-models.ts). Where the database writes the answer of
 * `organization(id)`, its lists that other areas declare (collections, spaces) are pages nested in its
 * row; its own fields with resolvers read the whole row.
 */
export const OrganizationReads = readModel({
  type: 'Organization',
  entity: 'Organization',
  key: 'id',
  needs: {
    object: [],
    etag: [],
    mergeRules: [],
    trial: [],
    customHostname: [],
    permissions: [],
    viewerRole: [],
    urls: ['logo'],
  },
  sql: { object: () => sql`'organization'::text` },
});
