import { readModel } from '../../kernel/read-models.js';

/**
 * How spaces are read (kernel/read-models.ts). Fields whose resolvers ask the policy (permissions, the
 * viewer's role) or other areas (counts) declare nothing: they read the whole row.
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
  },
});
