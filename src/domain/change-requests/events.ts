import type { ChangeRequestRow } from './entities.js';

/** The payloads of change request events: the change request as the contract names its fields, related resources as ids. */

export const changeRequestPayload = (changeRequest: ChangeRequestRow) => ({
  object: 'change-request',
  id: changeRequest.id,
  number: changeRequest.number,
  status: changeRequest.status,
  subject: changeRequest.subject,
  space: changeRequest.space,
  createdBy: changeRequest.createdBy,
  createdAt: changeRequest.createdAt.toISOString(),
  updatedAt: changeRequest.updatedAt.toISOString(),
  revision: changeRequest.revision,
  revisionInitial: changeRequest.revisionInitial,
  revisionMergedAncestor: changeRequest.revisionMergedAncestor,
  revisionMerged: changeRequest.revisionMerged,
});

export const changeRequestTarget = (changeRequest: ChangeRequestRow) => ({ spaceId: changeRequest.space, changeRequestId: changeRequest.id });
