import type { JsonSchema } from './components.js';

/*
 * What every GET declares for revalidation (docs/behaviour/conditional-requests.md): the `ETag` of its
 * answer, the `If-None-Match` it takes, its 304. Declared once under `components` and referenced from
 * each GET, so that the document does not repeat them a hundred times.
 */

/** `components.headers`. */
export const revalidationHeaders = (): Record<string, JsonSchema> => ({
  ETag: {
    description:
      "A strong entity tag: the hash of the answer's bytes for this caller, changing exactly when they do. Send it back as `If-None-Match` " +
      "(304 when unchanged) or, on the resource's PATCH, PUT or DELETE, as `If-Match` (412 when it changed since).",
    schema: { type: 'string' },
  },
});

/** `components.parameters`. */
export const revalidationParameters = (): Record<string, JsonSchema> => ({
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description: 'Answer 304 with no body when the current `ETag` is one of these entity tags (weak comparison) or `*`.',
    schema: { type: 'string' },
  },
});

/** `components.responses`. */
export const revalidationResponses = (): Record<string, JsonSchema> => ({
  NotModified: { description: 'Not Modified: `If-None-Match` names the current ETag. No body.', headers: { ETag: { $ref: '#/components/headers/ETag' } } },
});

export const ETAG: JsonSchema = { $ref: '#/components/headers/ETag' };
export const IF_NONE_MATCH: JsonSchema = { $ref: '#/components/parameters/IfNoneMatch' };
export const NOT_MODIFIED: JsonSchema = { $ref: '#/components/responses/NotModified' };
