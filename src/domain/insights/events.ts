import { Ajv } from 'ajv';
import { z } from 'zod';
import { badRequest } from '../../kernel/errors.js';
import { oneOf } from '../../kernel/validation.js';
import { bounded } from './cache.js';

/*
 * The reference's event kinds (SiteInsightsEvent): every kind carries `session`, `location` and an
 * optional `timestamp`; some carry fields of their own. Objects are strict: an unknown field is a
 * mistake worth reporting rather than data silently dropped.
 */

const MAX_ID = 256;
const MAX_TEXT = 2048;
const MAX_CLAIMS_JSON = 4096;
const MAX_CLAIMS_DEPTH = 5;

const id = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(MAX_ID, { error: `must be at most ${MAX_ID} characters` });
const optionalId = id.nullable();
const shortText = z.string({ error: 'must be a string' }).max(MAX_TEXT, { error: `must be at most ${MAX_TEXT} characters` });
const webUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048, { error: 'must be at most 2048 characters' });

type Plain = string | number | boolean | { [key: string]: Plain };
function isPlainObject(value: unknown, depth = 1): value is Record<string, Plain> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > MAX_CLAIMS_DEPTH) return false;
  return Object.values(value).every(
    (v) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || isPlainObject(v, depth + 1),
  );
}
const claims = z
  .unknown()
  .refine((value) => isPlainObject(value), { error: `must be an object of strings, numbers, booleans and objects (at most ${MAX_CLAIMS_DEPTH} deep)` })
  .refine((value) => JSON.stringify(value).length <= MAX_CLAIMS_JSON, { error: `must be at most ${MAX_CLAIMS_JSON} characters as JSON` })
  .transform((value) => value);

const Session = z.strictObject({
  visitorId: id,
  sessionId: id,
  cookies: z.record(z.string(), z.string({ error: 'values must be strings' }).max(4096), { error: 'must be an object of strings' }),
  ip: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IP address' }).optional(),
  userAgent: z.string({ error: 'must be a string' }).max(1024, { error: 'must be at most 1024 characters' }),
  language: z.string({ error: 'must be a string or null' }).max(35, { error: 'must be at most 35 characters' }).nullable(),
  referrer: z
    .string({ error: 'must be an http(s) URL, an empty string or null' })
    .refine((value) => value === '' || webUrl.safeParse(value).success, { error: 'must be an http(s) URL, an empty string or null' })
    .nullable(),
  visitorAuthToken: z.string().max(MAX_TEXT).nullable().optional(),
  visitorAuthClaims: claims.optional(),
});

const Location = z.strictObject({
  url: webUrl,
  siteSection: optionalId,
  siteSpace: optionalId,
  siteShareKey: optionalId,
  space: optionalId,
  revision: optionalId,
  page: optionalId,
});

const base = {
  session: Session,
  location: Location,
  timestamp: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
};
const rating = oneOf(['bad', 'ok', 'good']);
const operation = z.strictObject({ path: shortText, method: z.string({ error: 'must be a string' }).max(16) });
const ad = z.strictObject({ domain: shortText, zoneId: shortText, placement: oneOf(['aside']) });
const contentRef = z
  .looseObject({ kind: oneOf(['url', 'file', 'page', 'anchor', 'user', 'collection', 'space', 'reusable-content', 'openapi']) })
  .refine((ref) => JSON.stringify(ref).length <= MAX_TEXT, { error: `must be at most ${MAX_TEXT} characters as JSON` })
  .refine((ref) => ref.kind !== 'url' || typeof ref.url === 'string', { error: 'url: is required for kind url', path: ['url'] });

const kind = <T extends string, S extends z.ZodRawShape>(type: T, fields: S) => z.strictObject({ type: z.literal(type), ...base, ...fields });

const EVENT_KINDS = {
  page_view: kind('page_view', {}),
  search_open: kind('search_open', {}),
  search_type_query: kind('search_type_query', { query: shortText }),
  search_open_result: kind('search_open_result', { query: shortText, result: z.strictObject({ spaceId: id, pageId: id }) }),
  page_post_feedback: kind('page_post_feedback', { feedback: z.strictObject({ rating }) }),
  page_post_feedback_comment: kind('page_post_feedback_comment', {
    feedback: z.strictObject({
      rating,
      comment: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(512, { error: 'must be at most 512 characters' }),
    }),
  }),
  ask_question: kind('ask_question', { query: shortText }),
  ask_rate_response: kind('ask_rate_response', {
    query: shortText,
    rating: z.union([z.literal(1), z.literal(-1)], { error: 'must be 1 or -1' }),
    responseId: id,
  }),
  link_click: kind('link_click', {
    link: z.strictObject({ target: contentRef, position: oneOf(['announcement', 'header', 'footer', 'sidebar', 'content']) }),
  }),
  api_client_open: kind('api_client_open', { operation }),
  api_client_request: kind('api_client_request', { operation }),
  trademark_click: kind('trademark_click', { placement: oneOf(['sidebar', 'ad', 'footer', 'pdf']) }),
  ad_click: kind('ad_click', { ad }),
  ad_display: kind('ad_display', { ad }),
} as const;

export type EventType = keyof typeof EVENT_KINDS;
export const EVENT_TYPES = Object.keys(EVENT_KINDS) as EventType[];

type AnyEvent = z.infer<(typeof EVENT_KINDS)[EventType]>;
type Extra = Partial<{
  query: string;
  result: { spaceId: string; pageId: string };
  feedback: { rating: string; comment?: string };
  rating: number;
  responseId: string;
  link: { target: Record<string, unknown>; position: string };
  operation: { path: string; method: string };
  placement: string;
  ad: { domain: string; zoneId: string; placement: string };
}>;

/** An event as validated, before it meets its site. */
export type ValidEvent = AnyEvent & Extra;

function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  if (issue.code === 'unrecognized_keys') return `unknown field "${issue.keys[0]}"`;
  return issue.message;
}

function fieldOf(index: number, path: PropertyKey[]): string {
  return `events[${index}]${path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('')}`;
}

/** Zod's verdict on one event: the reference for what is valid, and the words of every 400. */
function explainEvent(input: unknown, index: number): ValidEvent {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw badRequest(`${fieldOf(index, [])}: must be an object`);
  const type = (input as { type?: unknown }).type;
  const schema = typeof type === 'string' ? EVENT_KINDS[type as EventType] : undefined;
  if (!schema || !Object.hasOwn(EVENT_KINDS, type as string)) {
    throw badRequest(`${fieldOf(index, ['type'])}: ${type === undefined ? 'is required' : `must be one of: ${EVENT_TYPES.join(', ')}`}`);
  }
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
    throw badRequest(`${fieldOf(index, path)}: ${issue.code === 'unrecognized_keys' ? 'unknown field' : messageOf(issue)}`);
  }
  return result.data;
}

// ─── the compiled check ─────────────────────────────────────────────────────────────────────────────
/*
 * Zod walks its schema generically for every event (about half of the cost of ingestion was there).
 * The same rules, as JSON Schema compiled by ajv into one function per kind, decide whether an event is
 * valid at a fraction of the cost; only an event that fails is run through zod, which names the field
 * and words the 400 exactly as before. Leaf checks that JSON Schema cannot express reuse zod's own
 * schemas and patterns (URLs through a bounded cache: real traffic repeats its pages and referrers).
 * The two must agree: test/insights-validation.test.ts checks them side by side on valid events and
 * on every kind of mistake. Were ajv ever to reject what zod accepts, zod's word stands.
 */

/** A URL as zod's `webUrl` leaves it (trimmed, tabs and newlines removed), or false when invalid. */
export const webUrlValue = bounded(5000, (value: string): string | false => {
  const result = webUrl.safeParse(value);
  return result.success ? result.data : false;
});
const ipAddress = z.union([z.ipv4(), z.ipv6()]);
const DATE_TIME = z.core.regexes.datetime({ offset: true });

// Both count a string's length in code points.
const ajv = new Ajv({ allErrors: false, strict: true });
ajv.addFormat('web-url', { type: 'string', validate: (value: string) => webUrlValue(value) !== false });
ajv.addFormat('referrer', { type: 'string', validate: (value: string) => value === '' || webUrlValue(value) !== false });
ajv.addFormat('ip', { type: 'string', validate: (value: string) => ipAddress.safeParse(value).success });
ajv.addFormat('date-time-offset', { type: 'string', validate: (value: string) => DATE_TIME.test(value) });
ajv.addKeyword({
  keyword: 'plainClaims',
  schemaType: 'boolean',
  validate: (_: boolean, value: unknown) => isPlainObject(value) && JSON.stringify(value).length <= MAX_CLAIMS_JSON,
});
ajv.addKeyword({
  keyword: 'contentRef',
  type: 'object',
  schemaType: 'boolean',
  validate: (_: boolean, ref: Record<string, unknown>) => JSON.stringify(ref).length <= MAX_TEXT && (ref.kind !== 'url' || typeof ref.url === 'string'),
});

const jsonString = (max: number, min = 0) => ({ type: 'string', maxLength: max, ...(min ? { minLength: min } : {}) });
const jsonId = jsonString(MAX_ID, 1);
const jsonOptionalId = { type: ['string', 'null'], minLength: 1, maxLength: MAX_ID };
const jsonShortText = jsonString(MAX_TEXT);
const jsonEnum = (values: readonly (string | number)[]) => ({ enum: [...values] });
const strict = (properties: Record<string, unknown>, optional: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
  properties,
});
const jsonSession = strict(
  {
    visitorId: jsonId,
    sessionId: jsonId,
    cookies: { type: 'object', additionalProperties: jsonString(4096) },
    ip: { type: 'string', format: 'ip' },
    userAgent: jsonString(1024),
    language: { type: ['string', 'null'], maxLength: 35 },
    referrer: { type: ['string', 'null'], format: 'referrer' },
    visitorAuthToken: { type: ['string', 'null'], maxLength: MAX_TEXT },
    visitorAuthClaims: { plainClaims: true },
  },
  ['ip', 'visitorAuthToken', 'visitorAuthClaims'],
);
const jsonLocation = strict({
  url: { type: 'string', format: 'web-url' },
  siteSection: jsonOptionalId,
  siteSpace: jsonOptionalId,
  siteShareKey: jsonOptionalId,
  space: jsonOptionalId,
  revision: jsonOptionalId,
  page: jsonOptionalId,
});
const RATINGS = ['bad', 'ok', 'good'];
const jsonOperation = strict({ path: jsonShortText, method: jsonString(16) });
const jsonAd = strict({ domain: jsonShortText, zoneId: jsonShortText, placement: jsonEnum(['aside']) });
const jsonContentRef = {
  type: 'object',
  required: ['kind'],
  properties: { kind: jsonEnum(['url', 'file', 'page', 'anchor', 'user', 'collection', 'space', 'reusable-content', 'openapi']) },
  contentRef: true,
};
const JSON_FIELDS: Record<EventType, Record<string, unknown>> = {
  page_view: {},
  search_open: {},
  search_type_query: { query: jsonShortText },
  search_open_result: { query: jsonShortText, result: strict({ spaceId: jsonId, pageId: jsonId }) },
  page_post_feedback: { feedback: strict({ rating: jsonEnum(RATINGS) }) },
  page_post_feedback_comment: { feedback: strict({ rating: jsonEnum(RATINGS), comment: jsonString(512, 1) }) },
  ask_question: { query: jsonShortText },
  ask_rate_response: { query: jsonShortText, rating: jsonEnum([1, -1]), responseId: jsonId },
  link_click: { link: strict({ target: jsonContentRef, position: jsonEnum(['announcement', 'header', 'footer', 'sidebar', 'content']) }) },
  api_client_open: { operation: jsonOperation },
  api_client_request: { operation: jsonOperation },
  trademark_click: { placement: jsonEnum(['sidebar', 'ad', 'footer', 'pdf']) },
  ad_click: { ad: jsonAd },
  ad_display: { ad: jsonAd },
};
const eventJsonSchema = (type: EventType) =>
  strict(
    { type: { const: type }, session: jsonSession, location: jsonLocation, timestamp: { type: 'string', format: 'date-time-offset' }, ...JSON_FIELDS[type] },
    ['timestamp'],
  );
const CHECKS = Object.fromEntries(EVENT_TYPES.map((type) => [type, ajv.compile(eventJsonSchema(type))])) as unknown as Record<
  EventType,
  (value: unknown) => boolean
>;

/** Standard JSON Schema for this module's own formats and keywords (those stay checks of this module). */
const PUBLISHED_FORMATS: Record<string, string | undefined> = { 'web-url': 'uri', 'date-time-offset': 'date-time', referrer: undefined, ip: undefined };
function published(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(published);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'contentRef') continue;
    if (key === 'plainClaims') out.type = 'object';
    else if (key === 'format' && typeof value === 'string' && value in PUBLISHED_FORMATS) {
      if (PUBLISHED_FORMATS[value]) out.format = PUBLISHED_FORMATS[value];
    } else if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, published(sub)]));
    else out[key] = key === 'items' || key === 'additionalProperties' || key === 'oneOf' ? published(value) : value;
  }
  return out;
}

/** The JSON Schema of an ingestion body (`{"events": [...]}`, at most `maxBatch` events), for the REST reference. */
export function eventBatchJsonSchema(maxBatch: number): Record<string, unknown> {
  return strict({ events: { type: 'array', maxItems: maxBatch, items: { oneOf: EVENT_TYPES.map((type) => published(eventJsonSchema(type))) } } });
}

/** The compiled check alone (for the test that holds it to zod's verdicts). */
export function passesCheck(input: unknown): boolean {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
  const type = (input as { type?: unknown }).type;
  return typeof type === 'string' && Object.hasOwn(CHECKS, type) && CHECKS[type as EventType](input);
}

/** Zod's verdict alone (for the same test): true, or the 400's message. */
export function zodVerdict(input: unknown): true | string {
  try {
    explainEvent(input, 0);
    return true;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Validates one event; a problem is a 400 naming the event's index and the field. A valid event is
 * returned as sent: `location.url` is to be read through `webUrlValue`, as zod would have left it.
 */
export function validateEvent(input: unknown, index: number): ValidEvent {
  return passesCheck(input) ? (input as ValidEvent) : explainEvent(input, index);
}
