import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Context } from '../../kernel/context.js';
import { alreadyTaken } from '../../db/database-errors.js';
import sql from 'sql-template-tag';
import { badRequest, DomainError, notFound } from '../../kernel/errors.js';
import { readPage, type SortKey } from '../../db/pages.js';
import { prebuilt } from '../../kernel/prebuilt-answers.js';
import { pageOfOrganization, rowOfOrganization } from '../../db/organization-rows.js';
import type { Page, PageArgs } from '../../kernel/pagination.js';
import { parseInput } from '../../kernel/validation.js';
import { CreateOpenAPISpecInput, OpenAPISpecSourceInput, PutOpenAPISpecInput, slug, UpdateOpenAPISpecInput } from './inputs.js';
import { newId } from '../../kernel/ids.js';
import { redactUrlsIn } from '../../kernel/url-redaction.js';
import { enqueue, type JobHandler, type JobRun } from '../../jobs/queue.js';
import { OpenAPISpec, OpenAPISpecVersion, type OpenAPISpecRow, type OpenAPISpecEntity, type OpenAPISpecVersionRow } from './entities.js';
import { recordSpecEvent, recordSpecProcessed } from './events.js';
import { processSource, type ProcessOutcome } from './processing.js';

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
    visibility: 'private',
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

/** Sets who may see the specification (`visibility`); the same visibility again changes nothing. */
export async function updateOpenAPISpec(ctx: Context, organizationId: string, specSlug: string, input: unknown): Promise<OpenAPISpecRow> {
  const { visibility } = parseInput(UpdateOpenAPISpecInput, input);
  const spec = await openAPISpecOf(ctx, organizationId, specSlug);
  if (spec.visibility === visibility) return spec;
  spec.visibility = visibility;
  spec.updatedAt = ctx.clock.now();
  recordSpecEvent(ctx, ctx.em, 'openapi_spec.updated', spec, ['visibility']);
  await ctx.em.flush();
  return spec;
}

/** A version of a specification, with the specification (its slug and visibility make its URLs). */
export type SpecVersion = { version: OpenAPISpecVersionRow; spec: OpenAPISpecRow };

/** Newest first: the number, unique in its spec (the unique index on spec and number serves the order). */
const newestFirst: SortKey<OpenAPISpecVersionRow>[] = [{ sql: 'v.number', desc: true, integer: true, of: (row) => row.number }];

/** The specification's versions, newest first; one page read in SQL (without their texts). */
export async function listOpenAPISpecVersions(ctx: Context, organizationId: string, specSlug: string, args: PageArgs): Promise<Page<SpecVersion>> {
  const spec = await openAPISpecOf(ctx, organizationId, specSlug);
  const found = await readPage(ctx.em, { entity: OpenAPISpecVersion, alias: 'v', where: sql`v.spec_id = ${spec.id}`, order: newestFirst }, args);
  return { ...found, items: found.items.map((version) => ({ version, spec })) };
}

type VersionText = 'content' | 'rawText';

/**
 * A version of the organization's specification: the one of that id, or the newest (the spec's
 * `lastVersion`) without one; 404 when the spec has none of that id (another spec's included) or none
 * at all yet. `texts` are the stored texts to read with it.
 */
export async function openAPISpecVersionOf(
  ctx: Context,
  organizationId: string,
  specSlug: string,
  versionId?: string | null,
  texts: readonly VersionText[] = [],
): Promise<SpecVersion> {
  const found = await versionOfSpec(ctx, await openAPISpecOf(ctx, organizationId, specSlug), versionId, texts);
  if (!found) throw notFound('OpenAPI specification version');
  return found;
}

/** The spec's version of that id (the newest without one), or null. */
export async function versionOfSpec(
  ctx: Context,
  spec: OpenAPISpecRow,
  versionId?: string | null,
  texts: readonly VersionText[] = [],
): Promise<SpecVersion | null> {
  const id = versionId ?? spec.lastVersion;
  const version = id ? await ctx.em.findOne(OpenAPISpecVersion, { id, spec: spec.id }, { populate: texts as never[] }) : null;
  return version ? { version, spec } : null;
}

/** The URL a version's document is read at: where it was fetched from, else its content in this API. */
export const versionUrl = (ctx: Context, { version, spec }: SpecVersion) => version.sourceURL ?? `${versionLocation(ctx, { version, spec })}/content`;

/** A version's place in this API. */
export const versionLocation = (ctx: Context, { version, spec }: SpecVersion) =>
  `${ctx.config.publicUrl}/v1/orgs/${spec.organization}/openapi/${spec.slug}/versions/${version.id}`;

/** A version kept from before versions were stored (Migration20261230184700) has no stored text for what was not the spec's current text. */
const noContent = () => new DomainError('NOT_FOUND', 'OpenAPI specification version content not found: the version was processed before versions were kept');

/**
 * A version's processed content, as 0.202.0's `OpenAPISpecContent`: its document as the only file of
 * the filesystem (no reference to another file is ever resolved), with its URLs. A public spec's
 * public URL is its source URL; a stored text has none (this server serves no unauthenticated copy).
 */
export async function openAPISpecVersionContent(ctx: Context, organizationId: string, specSlug: string, versionId?: string | null) {
  const found = await openAPISpecVersionOf(ctx, organizationId, specSlug, versionId, ['content']);
  const { version, spec } = found;
  if (version.content == null) throw noContent();
  return {
    // The stored JSON text goes into the answer as it is (prebuilt-answers.ts).
    filesystem: prebuilt<Record<string, unknown>>(`{${JSON.stringify(`openapi.${version.rawFormat ?? 'json'}`)}:${version.content}}`),
    urls: { source: versionUrl(ctx, found), public: spec.visibility === 'public' ? version.sourceURL : null },
  };
}

/** A version's source exactly as received, and its syntax; 404 where it was not kept. */
export async function openAPISpecVersionRawContent(ctx: Context, organizationId: string, specSlug: string, versionId?: string | null) {
  const { version } = await openAPISpecVersionOf(ctx, organizationId, specSlug, versionId, ['rawText']);
  if (version.rawText == null || version.rawFormat == null) throw noContent();
  return { text: version.rawText, format: version.rawFormat as 'json' | 'yaml' };
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
  // A success is a new version, which the spec names as its newest; a failure keeps the newest there is.
  const versionId = newId();
  const recorded = outcome.ok
    ? { lastVersion: versionId, lastTitle: outcome.title, lastFormat: outcome.format, operations: outcome.operations, lastProcessErrorCode: null }
    : { lastProcessErrorCode: outcome.code };
  const finished = { ...recorded, processingState: 'complete', lastProcessedAt: now };
  const written = await run.whileClaimed(em, async (tx) => {
    const changed = await tx.nativeUpdate(OpenAPISpec, current, finished);
    if (changed === 0) return changed;
    // The update holds the spec's row until commit: its versions are numbered one at a time.
    if (outcome.ok) await addVersion(tx, spec, versionId, outcome, now);
    // Announced with the outcome, in its transaction; a stale run wrote nothing and announces nothing.
    recordSpecProcessed(tx, now, { ...spec, ...finished });
    return changed;
  });
  if (written && !outcome.ok)
    run.logger.info({ spec: spec.id, code: outcome.code, reason: redactUrlsIn(outcome.reason) }, 'OpenAPI specification not processed');
}

/** Keeps what a processing read as the spec's next version. */
async function addVersion(tx: EntityManager, spec: OpenAPISpecRow, id: string, outcome: ProcessOutcome & { ok: true }, now: Date) {
  const newest = await tx.findOne(OpenAPISpecVersion, { spec: spec.id }, { orderBy: { number: 'desc' }, fields: ['number'] });
  await tx.insert(OpenAPISpecVersion, {
    id,
    organization: spec.organization,
    spec: spec.id,
    number: (newest?.number ?? 0) + 1,
    sourceURL: spec.sourceURL,
    version: outcome.version,
    title: outcome.title,
    format: outcome.format,
    content: outcome.content,
    rawText: outcome.rawText,
    rawFormat: outcome.rawFormat,
    createdAt: now,
  });
}

export const openAPIJobHandlers: Record<string, JobHandler> = {
  [PROCESS_JOB]: Object.assign(processSpec, { outsideTransaction: true }),
};
