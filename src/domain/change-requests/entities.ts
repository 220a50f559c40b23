import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { Organization } from '../organizations/index.js';
import { Space } from '../spaces/index.js';

/** Proposed edits to a space, on revisions of their own, merged into the space's main content. */
export const ChangeRequest = defineEntity({
  name: 'ChangeRequest',
  uniques: [{ properties: ['space', 'number'] }],
  indexes: [
    { properties: ['space', 'status', 'number'] },
    // An organization's list, newest first by either time (organization-list.ts).
    { properties: ['organization', 'updatedAt', 'id'] },
    { properties: ['organization', 'createdAt', 'id'] },
  ],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade'),
    /** 1, 2, 3… within the space. */
    number: p.integer(),
    /** draft, open, archived or merged. */
    status: p.string(),
    subject: p.string(),
    createdBy: p.string(),
    /** Users who made a revision of the change request (its creator first). */
    contributors: p.json<string[]>(),
    /** The change request's current revision. */
    revision: p.string(),
    /** The space's revision it started from. */
    revisionInitial: p.string(),
    /** The space's revision last brought in by an update. */
    revisionMergedAncestor: p.string().nullable(),
    /** The space's revision that its merge made. */
    revisionMerged: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
/** The managed entity, for the services that change it; reads get the read-only `ChangeRequestRow`. */
export type ChangeRequestEntity = InferEntity<typeof ChangeRequest>;
export type ChangeRequestRow = Plain<ChangeRequestEntity>;
