import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { Organization } from '../organizations/index.js';

/** One operation of a processed specification, as an API reference shows it. */
export type SpecOperation = {
  path: string;
  method: string;
  operationId: string | null;
  summary: string | null;
  description: string | null;
  tags: string[];
  deprecated: boolean;
};

/**
 * An OpenAPI specification stored by an organization under a slug, from a URL or a text. Each change
 * of source bumps `sourceRevision` and schedules processing; a processing run records its outcome only
 * if the source has not changed since it started.
 */
export const OpenAPISpec = defineEntity({
  name: 'OpenAPISpec',
  tableName: 'openapi_spec',
  uniques: [{ properties: ['organization', 'slug'] }],
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    slug: p.string().length(100),
    /** The URL fetched at each processing; null when the source is a text. */
    sourceURL: p.string().length(2048).nullable(),
    /** The specification's text when it was given as text. */
    sourceText: p.text().nullable(),
    sourceRevision: p.integer(),
    /** `pending` (waiting for a worker), `progress` (being processed) or `complete`. */
    processingState: p.string(),
    /** `info.version` of the last document processed successfully. */
    lastVersion: p.string().nullable(),
    lastProcessedAt: p.datetime().nullable(),
    /** FETCH_TIMEOUT, FETCH_ERROR or PARSE_ERROR when the last processing failed. */
    lastProcessErrorCode: p.string().nullable(),
    /** Title (`info.title`) of the last document processed successfully. */
    lastTitle: p.text().nullable(),
    /** Specification flavour of that document: `openapi` (3.x) or `swagger` (2.0), with its version. */
    lastFormat: p.string().nullable(),
    /** Operations of that document, in document order. */
    operations: p.json<SpecOperation[]>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
/** The managed entity, for the services that change it; reads get the read-only `OpenAPISpecRow`. */
export type OpenAPISpecEntity = InferEntity<typeof OpenAPISpec>;
export type OpenAPISpecRow = Plain<OpenAPISpecEntity>;
