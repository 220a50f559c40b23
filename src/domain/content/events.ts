import type { RevisionRow } from './entities.js';

/** content.edited: the revision written (edits, an update from main, or a merge) and where. */
export const revisionPayload = (revision: Pick<RevisionRow, 'id' | 'type' | 'parents' | 'space' | 'changeRequest' | 'createdBy' | 'createdAt'>) => ({
  object: 'revision',
  id: revision.id,
  type: revision.type,
  parents: revision.parents,
  space: revision.space,
  changeRequest: revision.changeRequest ?? null,
  createdBy: revision.createdBy ?? null,
  createdAt: revision.createdAt.toISOString(),
});

export const revisionTarget = (revision: Pick<RevisionRow, 'id' | 'space' | 'changeRequest'>) => ({
  spaceId: revision.space,
  changeRequestId: revision.changeRequest,
  revisionId: revision.id,
});
