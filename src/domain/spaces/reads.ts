import { readModel } from '../../kernel/read-models.js';
import { ROLE_COLUMNS } from '../../kernel/policy.js';

/**
 * How spaces are read (kernel/read-models.ts). Fields of other areas that declare nothing (content,
 * comments) read the whole row.
 */
export const SpaceReads = readModel({
  type: 'Space',
  entity: 'Space',
  key: 'id',
  always: ['organization'],
  needs: {
    object: [],
    emoji: ['emoji'],
    urls: ['visibility'],
    owningOrganization: [],
    parentCollection: ['parent'],
    permissions: ROLE_COLUMNS,
    viewerRole: ROLE_COLUMNS,
  },
});
