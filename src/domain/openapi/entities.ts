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
    /** Id of the newest version (`openapi_spec_version`): the last source processed successfully. */
    lastVersion: p.string().nullable(),
    /** `private` or `public` (0.202.0's `OpenAPISpecVisibility`); only a PATCH changes it. */
    visibility: p.string().default('private'),
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

/**
 * One processed version of a specification: each processing that succeeds keeps the document it read
 * (`content`, the parsed document as JSON text) and the source as received (`rawText`), numbered in
 * the spec's order (1 for the first). The spec's `lastVersion` names the newest. The texts are lazy:
 * lists and graph fields never read them, only the content answers.
 */
export const OpenAPISpecVersion = defineEntity({
  name: 'OpenAPISpecVersion',
  tableName: 'openapi_spec_version',
  uniques: [{ properties: ['spec', 'number'] }],
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    spec: () => p.manyToOne(OpenAPISpec).mapToPk().deleteRule('cascade'),
    /** 1 for the spec's first version, then one more for each. */
    number: p.integer(),
    /** The URL the source was fetched from; null for a text source (or not known, for a version kept from before versions). */
    sourceURL: p.string().length(2048).nullable(),
    /** `info.version` of the document. */
    version: p.string().nullable(),
    /** `info.title` of the document. */
    title: p.text().nullable(),
    /** `openapi 3.0.3`, `swagger 2.0`, … */
    format: p.string(),
    /** The parsed document (its `$ref`s as written) as JSON text; null for a version kept from before versions, which stored none. */
    content: p.text().lazy().nullable(),
    /** The source exactly as received (fetched or given); null where it was not kept. */
    rawText: p.text().lazy().nullable(),
    /** `json` or `yaml`: the syntax of `rawText`. */
    rawFormat: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
export type OpenAPISpecVersionRow = Plain<InferEntity<typeof OpenAPISpecVersion>>;
