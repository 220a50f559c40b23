import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Context } from '../../kernel/context.js';
import { alreadyTaken } from '../../db/database-errors.js';
import { badRequest } from '../../kernel/errors.js';
import { pageOfOrganization, rowOfOrganization } from '../../db/organization-rows.js';
import type { PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import { CreateOpenAPISpecInput, OpenAPISpecSourceInput, PutOpenAPISpecInput, slug } from './inputs.js';
import { newId } from '../../kernel/ids.js';
import { redactUrlsIn } from '../../kernel/url-redaction.js';
import { enqueue, type JobHandler, type JobRun } from '../../jobs/queue.js';
import { OpenAPISpec, type OpenAPISpecRow, type OpenAPISpecEntity } from './entities.js';
import { recordSpecEvent, recordSpecProcessed } from './events.js';
import { processSource } from './processing.js';

const PROCESS_JOB = 'openapi.process';

type Source = z.infer<typeof OpenAPISpecSourceInput>;

/** A 400 when a text source is larger than what a URL may serve (FETCH_MAX_BYTES). */
function checkTextSize(ctx: Context, source: Source) {
  const max = ctx.config.fetch.maxBytes;
  if (source.text && Buffer.byteLength(source.text) > max) throw badRequest(`source.text: must be at most ${max} bytes`);
}

/** Gives the spec a new source and schedules its processing in the same unit of work. */
function setSource(ctx: Context, em: EntityManager, spec: OpenAPISpecEntity, source: Source) {
  spec.sourceURL = source.url ?? null;
  spec.sourceText = source.text ?? null;
  spec.sourceRevision += 1;
  spec.processingState = 'pending';
  spec.updatedAt = ctx.clock.now();
  enqueue(em, ctx.clock, PROCESS_JOB, { specId: spec.id, revision: spec.sourceRevision });
}

/** A spec of that slug without a source yet (revision 0): `setSource` gives it its first. */
function sourcelessSpec(ctx: Context, organizationId: string, slugValue: string) {
  const now = ctx.clock.now();
  return {
    id: newId(),
    organization: organizationId,
    slug: slugValue,
    sourceURL: null,
    sourceText: null,
    sourceRevision: 0,
    processingState: 'pending',
    lastVersion: null,
    lastProcessedAt: null,
    lastProcessErrorCode: null,
    lastTitle: null,
    lastFormat: null,
    operations: [],
    createdAt: now,
    updatedAt: now,
  };
}

/** The organization's spec of that slug; 404 when there is none. */
export function openAPISpecOf(ctx: Context, organizationId: string, specSlug: string): Promise<OpenAPISpecEntity> {
  return rowOfOrganization(ctx.em, OpenAPISpec, organizationId, { slug: specSlug }, 'OpenAPI specification');
}

/** OpenAPI specifications of the organization, oldest first; one page read in SQL. */
export function listOpenAPISpecs(ctx: Context, organizationId: string, args: PageArgs) {
  return pageOfOrganization(ctx.em, OpenAPISpec, 's', organizationId, args);
}

/** Stores a new specification (409 when the slug is taken); it is processed by a job. */
export async function createOpenAPISpec(ctx: Context, organizationId: string, input: unknown): Promise<OpenAPISpecRow> {
  const fields = parseInput(CreateOpenAPISpecInput, input);
  checkTextSize(ctx, fields.source);
  if (await ctx.em.findOne(OpenAPISpec, { organization: organizationId, slug: fields.slug })) {
    throw alreadyTaken('openapi_spec_organization_id_slug_unique', fields.slug);
  }
  const spec = ctx.em.create(OpenAPISpec, sourcelessSpec(ctx, organizationId, fields.slug));
  setSource(ctx, ctx.em, spec, fields.source);
  recordSpecEvent(ctx, ctx.em, 'openapi_spec.created', spec);
  await ctx.em.flush();
  return spec;
}

/**
 * Creates the specification of that slug or replaces its source; either way it is processed again,
 * unless the source is the text the specification has already (a no-op).
 * INSERT … ON CONFLICT DO NOTHING, then the row locked: of concurrent requests for a new slug exactly
 * one creates it, and each gives it its source in turn.
 */
export async function putOpenAPISpec(ctx: Context, organizationId: string, specSlug: string, input: unknown) {
  const validSlug = parseInput(z.object({ specSlug: slug }), { specSlug }).specSlug;
  const { source } = parseInput(PutOpenAPISpecInput, input);
  checkTextSize(ctx, source);
  return ctx.em.transactional(async (tx) => {
    const inserted = await tx
      .createQueryBuilder(OpenAPISpec)
      .insert(sourcelessSpec(ctx, organizationId, validSlug))
      .onConflict(['organization', 'slug'])
      .ignore()
      .execute('run');
    const spec = await tx.findOneOrFail(
      OpenAPISpec,
      { organization: organizationId, slug: validSlug },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    const created = inserted.affectedRows > 0;
    // The text it has already is a no-op (processing it again would read the same); a URL is fetched again, as it may serve something new.
    if (!created && source.text != null && spec.sourceURL === null && spec.sourceText === source.text) return { created, spec };
    setSource(ctx, tx, spec, source);
    if (created) recordSpecEvent(ctx, tx, 'openapi_spec.created', spec);
    else recordSpecEvent(ctx, tx, 'openapi_spec.updated', spec, ['sourceURL', 'processingState']);
    return { created, spec };
  });
}

/** Deletes a specification; a processing job still queued for it finds nothing and ends. */
export async function deleteOpenAPISpec(ctx: Context, organizationId: string, specSlug: string): Promise<void> {
  const spec = await openAPISpecOf(ctx, organizationId, specSlug);
  ctx.em.remove(spec);
  recordSpecEvent(ctx, ctx.em, 'openapi_spec.deleted', spec);
  await ctx.em.flush();
}

/**
 * Processes one source revision of a spec: marks it in progress, fetches and reads it outside any
 * transaction, then records the outcome. Each write holds the job's claim and names the revision in
 * the same transaction: a run that lost its claim (taken over after its lease) records nothing, nor does
 * one whose source changed (or whose spec went) meanwhile: the newer revision's own job records its
 * outcome. Run again after a crash, it starts over.
 */
async function processSpec(em: EntityManager, payload: Record<string, unknown>, now: Date, run: JobRun) {
  const current = { id: String(payload.specId), sourceRevision: Number(payload.revision) };
  const spec = await em.findOne(OpenAPISpec, current);
  if (!spec) return;
  const started = await run.whileClaimed(em, (tx) => tx.nativeUpdate(OpenAPISpec, current, { processingState: 'progress' }));
  if (!started) return;
  const outcome = await processSource({ url: spec.sourceURL ?? null, text: spec.sourceText ?? null }, run.config.fetch, run.signal);
  const recorded = outcome.ok
    ? { lastVersion: outcome.version, lastTitle: outcome.title, lastFormat: outcome.format, operations: outcome.operations, lastProcessErrorCode: null }
    : { lastProcessErrorCode: outcome.code };
  const finished = { ...recorded, processingState: 'complete', lastProcessedAt: now };
  const written = await run.whileClaimed(em, async (tx) => {
    const changed = await tx.nativeUpdate(OpenAPISpec, current, finished);
    // Announced with the outcome, in its transaction; a stale run wrote nothing and announces nothing.
    if (changed > 0) recordSpecProcessed(tx, now, { ...spec, ...finished });
    return changed;
  });
  if (written && !outcome.ok)
    run.logger.info({ spec: spec.id, code: outcome.code, reason: redactUrlsIn(outcome.reason) }, 'OpenAPI specification not processed');
}

export const openAPIJobHandlers: Record<string, JobHandler> = {
  [PROCESS_JOB]: Object.assign(processSpec, { outsideTransaction: true }),
};
