import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Organization } from '../organizations/entities.js';
import { Space } from '../spaces/entities.js';

/** An immutable snapshot of a space's content; every edit makes a new one whose parents name the previous. */
export const Revision = defineEntity({
  name: 'Revision',
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade').index(),
    parents: p.json<string[]>(),
    type: p.string(),
    createdAt: p.datetime(),
  },
});
export type RevisionRow = InferEntity<typeof Revision>;
