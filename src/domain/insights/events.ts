import { z } from 'zod';
import { badRequest } from '../../graphql/errors.js';
import { oneOf } from '../../graphql/validation.js';
import type { EventRow } from './tables.js';
import { visitorAgent } from './user-agent.js';

/*
 * The reference's event kinds (SiteInsightsEvent): every kind carries `session`, `location` and an
 * optional `timestamp`; some carry fields of their own. Objects are strict: an unknown field is a
 * mistake worth reporting rather than data silently dropped.
 */

const MAX_ID = 256;
const MAX_TEXT = 2048;
const MAX_CLAIMS_JSON = 4096;
const MAX_CLAIMS_DEPTH = 5;

const id = z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(MAX_ID, { error: `must be at most ${MAX_ID} characters` });
const optionalId = id.nullable();
const shortText = z.string({ error: 'must be a string' }).max(MAX_TEXT, { error: `must be at most ${MAX_TEXT} characters` });
const webUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048, { error: 'must be at most 2048 characters' });

type Plain = string | number | boolean | { [key: string]: Plain };
function isPlainObject(value: unknown, depth = 1): value is Record<string, Plain> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > MAX_CLAIMS_DEPTH) return false;
  return Object.values(value).every((v) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || isPlainObject(v, depth + 1));
}
const claims = z
  .unknown()
  .refine((value) => isPlainObject(value), { error: `must be an object of strings, numbers, booleans and objects (at most ${MAX_CLAIMS_DEPTH} deep)` })
  .refine((value) => JSON.stringify(value).length <= MAX_CLAIMS_JSON, { error: `must be at most ${MAX_CLAIMS_JSON} characters as JSON` })
  .transform((value) => value as Record<string, Plain>);

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
    feedback: z.strictObject({ rating, comment: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(512, { error: 'must be at most 512 characters' }) }),
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

/** Validates one event; a problem is a 400 naming the event's index and the field. */
export function validateEvent(input: unknown, index: number): ValidEvent {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw badRequest(`${fieldOf(index, [])}: must be an object`);
  const type = (input as { type?: unknown }).type;
  const schema = typeof type === 'string' ? EVENT_KINDS[type as EventType] : undefined;
  if (!schema || !Object.hasOwn(EVENT_KINDS, type as string)) {
    throw badRequest(`${fieldOf(index, ['type'])}: ${type === undefined ? 'is required' : `must be one of: ${EVENT_TYPES.join(', ')}`}`);
  }
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
    throw badRequest(`${fieldOf(index, path)}: ${issue.code === 'unrecognized_keys' ? 'unknown field' : messageOf(issue)}`);
  }
  return result.data as ValidEvent;
}

const UTM = ['source', 'medium', 'campaign', 'term', 'content'] as const;

function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}

/** The stored row of a valid event of a site: what the reference's query columns read. */
export function eventRow(event: ValidEvent, site: { id: string; organization: string }, now: Date): EventRow {
  const { session, location } = event;
  const agent = visitorAgent(session.userAgent);
  // Parsing a URL is the dearest step of ingestion: only URLs that carry utm parameters pay for it.
  const params = location.url.includes('utm_') ? new URL(location.url).searchParams : undefined;
  const utm = Object.fromEntries(UTM.map((key) => [`utm_${key}`, params?.get(`utm_${key}`)?.slice(0, 256) ?? null]));
  const target = event.link?.target;
  const claims = session.visitorAuthClaims && Object.keys(session.visitorAuthClaims).length ? JSON.stringify(session.visitorAuthClaims) : null;
  return {
    site_id: site.id,
    organization_id: site.organization,
    time: event.timestamp ? new Date(event.timestamp).toISOString() : now.toISOString(),
    type: event.type,
    visitor_id: session.visitorId,
    session_id: session.sessionId,
    url: location.url,
    site_section: location.siteSection,
    site_space: location.siteSpace,
    site_share_key: location.siteShareKey,
    space: location.space,
    revision: location.revision,
    page: location.page,
    language: session.language,
    referrer: session.referrer || null,
    referrer_domain: hostOf(session.referrer),
    utm_source: utm.utm_source!,
    utm_medium: utm.utm_medium!,
    utm_campaign: utm.utm_campaign!,
    utm_term: utm.utm_term!,
    utm_content: utm.utm_content!,
    browser: agent.browser,
    device: agent.device,
    os: agent.os,
    bot: agent.bot,
    // No IP geolocation database ships with the server: the country stays unknown.
    country: null,
    claims,
    search_query: event.query ?? null,
    search_result_space: event.result?.spaceId ?? null,
    search_result_page: event.result?.pageId ?? null,
    feedback_rating: event.feedback?.rating ?? null,
    feedback_comment: event.feedback?.comment ?? null,
    ask_rating: event.rating ?? null,
    ask_response_id: event.responseId ?? null,
    link_target: target ? JSON.stringify(target) : null,
    link_target_kind: (target?.kind as string | undefined) ?? null,
    link_target_domain: target?.kind === 'url' ? hostOf(target.url as string) : null,
    link_position: event.link?.position ?? null,
    api_operation_path: event.operation?.path ?? null,
    api_operation_method: event.operation?.method?.toLowerCase() ?? null,
    ad_domain: event.ad?.domain ?? null,
    ad_zone_id: event.ad?.zoneId ?? null,
    ad_placement: event.ad?.placement ?? null,
    trademark_placement: event.placement ?? null,
  };
}
