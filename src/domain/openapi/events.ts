import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../kernel/clock.js';
import { recordEvent, recordServerEvent } from '../../events/record.js';
import type { Context } from '../../kernel/context.js';
import type { OpenAPISpecRow } from './entities.js';

/**
 * The payload of OpenAPI spec events: the spec as the contract names its fields. The source text is
 * left out (it can be megabytes; receivers fetch the spec when they need it), as are permissions and urls.
 */
export const openAPISpecPayload = (spec: OpenAPISpecRow) => ({
  object: 'openapi-spec',
  id: spec.id,
  organization: spec.organization,
  slug: spec.slug,
  sourceURL: spec.sourceURL,
  processingState: spec.processingState,
  visibility: spec.visibility,
  lastVersion: spec.lastVersion,
  lastProcessedAt: spec.lastProcessedAt?.toISOString() ?? null,
  lastProcessErrorCode: spec.lastProcessErrorCode,
  title: spec.lastTitle,
  format: spec.lastFormat,
  createdAt: spec.createdAt.toISOString(),
  updatedAt: spec.updatedAt.toISOString(),
});

const specTarget = (spec: OpenAPISpecRow) => ({ openAPISpecId: spec.id });

type SpecEventType = 'openapi_spec.created' | 'openapi_spec.updated' | 'openapi_spec.deleted';

/** Records a change of a spec made by a request; an update names the fields that changed. */
export function recordSpecEvent(ctx: Context, em: EntityManager, type: SpecEventType, spec: OpenAPISpecRow, changes?: string[]) {
  const payload = changes ? { ...openAPISpecPayload(spec), changes } : openAPISpecPayload(spec);
  recordEvent(ctx, em, { type, organizationId: spec.organization, target: specTarget(spec), payload });
}

/** Records that the processing job finished a revision of the spec (successfully or not: see `lastProcessErrorCode`). */
export function recordSpecProcessed(em: EntityManager, now: Date, spec: OpenAPISpecRow) {
  const clock: Clock = { now: () => now };
  recordServerEvent(em, clock, {
    type: 'openapi_spec.processed',
    organizationId: spec.organization,
    target: specTarget(spec),
    payload: openAPISpecPayload(spec),
  });
}
