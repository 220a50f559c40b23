/**
 * Ingestion decides whether an event is valid with a compiled check (ajv) and asks zod only to word
 * the 400 of an event that fails it. The two must agree on every event: this holds them side by side on
 * valid events of every kind and on mistakes made systematically at every field (missing, null, of
 * another type, empty, too long, unknown fields beside it), plus the edge cases of their leaf checks.
 */
import { describe, expect, it } from 'vitest';
import { passesCheck, validateEvent, zodVerdict } from '../src/domain/insights/index.js';
import { siteEvent } from './support/insights.js';

const VALID: Record<string, unknown>[] = [
  siteEvent(),
  siteEvent({ type: 'search_open', timestamp: '2026-01-15T11:00:00+02:00' }),
  siteEvent({ type: 'search_type_query', query: 'install', timestamp: '2026-01-15T11:00:00.123456Z' }),
  siteEvent({ type: 'search_open_result', query: 'install', result: { spaceId: 's1', pageId: 'p1' } }),
  siteEvent({ type: 'page_post_feedback', feedback: { rating: 'good' } }),
  siteEvent({ type: 'page_post_feedback_comment', feedback: { rating: 'bad', comment: 'Unclear' } }),
  siteEvent({ type: 'ask_question', query: 'How to install?' }),
  siteEvent({ type: 'ask_rate_response', query: 'How?', rating: -1, responseId: 'r1' }),
  siteEvent({ type: 'link_click', link: { target: { kind: 'url', url: 'https://github.com/acme' }, position: 'header' } }),
  siteEvent({ type: 'link_click', link: { target: { kind: 'page', page: 'p1', extra: { any: 1 } }, position: 'sidebar' } }),
  siteEvent({ type: 'api_client_open', operation: { path: '/pets', method: 'GET' } }),
  siteEvent({ type: 'api_client_request', operation: { path: '/pets', method: 'POST' } }),
  siteEvent({ type: 'trademark_click', placement: 'footer' }),
  siteEvent({ type: 'ad_click', ad: { domain: 'ads.example.com', zoneId: 'z1', placement: 'aside' } }),
  siteEvent({ type: 'ad_display', ad: { domain: 'ads.example.com', zoneId: 'z1', placement: 'aside' } }),
  siteEvent({
    session: {
      ip: '2001:db8::1',
      cookies: { a: 'b' },
      referrer: 'https://www.google.com/search?q=x',
      visitorAuthToken: null,
      visitorAuthClaims: { plan: 'pro', org: { id: 7, beta: true, deep: { a: { b: 'c' } } } },
    },
    location: { url: 'https://docs.example.com/a?utm_source=x', siteSection: 's', siteSpace: 'ss', siteShareKey: 'k', space: 'sp', revision: 'r', page: 'p' },
  }),
  siteEvent({ session: { ip: '10.0.0.1', referrer: '', visitorAuthToken: 'token', visitorAuthClaims: {} } }),
];

/** Values put in place of a field: each is wrong for most fields and right for a few. */
const REPLACEMENTS: unknown[] = [
  undefined,
  null,
  0,
  1,
  -1,
  1.5,
  true,
  '',
  'x',
  'x'.repeat(257),
  'x'.repeat(2049),
  {},
  [],
  ['a'],
  { kind: 'url' },
  'https://example.com/x',
  'ftp://example.com/',
  '2026-01-15T11:00:00Z',
  '127.0.0.1',
];

/** Every path to a value inside an event (objects only: events hold no arrays). */
function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [prefix];
  return [prefix, ...Object.entries(value).flatMap(([key, child]) => pathsOf(child, [...prefix, key]))];
}

function withValue(event: Record<string, unknown>, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(event);
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  if (value === undefined) delete node[path.at(-1)!];
  else node[path.at(-1)!] = value;
  return copy;
}

const agree = (event: unknown) => {
  const verdict = zodVerdict(event);
  expect({ event, check: passesCheck(event) }).toEqual({ event, check: verdict === true });
};

describe('the compiled check and zod agree', () => {
  it('on valid events of every kind', () => {
    for (const event of VALID) {
      expect(zodVerdict(event)).toBe(true);
      expect(passesCheck(event)).toBe(true);
    }
  });

  it('on every field missing, replaced by a value of another shape, or with an unknown field beside it', () => {
    let cases = 0;
    for (const event of VALID) {
      for (const path of pathsOf(event)) {
        for (const value of REPLACEMENTS) {
          agree(withValue(event, path, value));
          cases += 1;
        }
        const at = path.length ? (withValue(event, [], event) as Record<string, unknown>) : event;
        const parent = path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], at);
        if (typeof parent === 'object' && parent !== null) agree(withValue(event, path, { ...parent, unexpected: 'x' }));
      }
    }
    expect(cases).toBeGreaterThan(5000);
  });

  it('on the edges of lengths (in code points), URLs, addresses, times and claims', () => {
    const astral = '😀'; // one code point, two UTF-16 units
    const edgy: Record<string, unknown>[] = [
      siteEvent({ session: { visitorId: astral.repeat(128) } }),
      siteEvent({ session: { visitorId: astral.repeat(129) } }),
      siteEvent({ session: { visitorId: astral.repeat(257) } }),
      siteEvent({ session: { visitorId: '\ud800'.repeat(256) } }),
      siteEvent({ session: { visitorId: 'x'.repeat(256) } }),
      siteEvent({ session: { language: 'x'.repeat(35) } }),
      siteEvent({ session: { language: 'x'.repeat(36) } }),
      siteEvent({ session: { userAgent: 'x'.repeat(1025) } }),
      siteEvent({ session: { cookies: { a: 'x'.repeat(4097) } } }),
      siteEvent({ session: { ip: '256.1.1.1' } }),
      siteEvent({ session: { ip: '::1' } }),
      siteEvent({ session: { ip: ' 10.0.0.1' } }),
      siteEvent({ session: { referrer: 'http:example.com' } }),
      siteEvent({ session: { referrer: ' https://example.com ' } }),
      siteEvent({ session: { visitorAuthClaims: { a: { b: { c: { d: { e: 1 } } } } } } }),
      siteEvent({ session: { visitorAuthClaims: { a: { b: { c: { d: { e: { f: 1 } } } } } } } }),
      siteEvent({ session: { visitorAuthClaims: { a: null } } }),
      siteEvent({ session: { visitorAuthClaims: { a: 'x'.repeat(4090) } } }),
      siteEvent({ session: { visitorAuthClaims: { a: 'x'.repeat(4080) } } }),
      siteEvent({ location: { url: 'https://docs.example.com/a\tb' } }),
      siteEvent({ location: { url: '  https://docs.example.com/  ' } }),
      siteEvent({ location: { url: 'HTTPS://DOCS.EXAMPLE.COM/' } }),
      siteEvent({ location: { url: 'https:/docs.example.com' } }),
      siteEvent({ location: { url: `https://docs.example.com/${'x'.repeat(2030)}` } }),
      siteEvent({ location: { url: `https://docs.example.com/${'x'.repeat(2030)}\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t` } }),
      siteEvent({ timestamp: '2026-01-15T11:00:00' }),
      siteEvent({ timestamp: '2026-02-30T11:00:00Z' }),
      siteEvent({ timestamp: '2026-01-15T24:00:00Z' }),
      siteEvent({ timestamp: '2026-01-15T11:00Z' }),
      siteEvent({ timestamp: '2026-01-15T11:00:00+2:00' }),
      siteEvent({ type: 'ask_rate_response', query: 'q', rating: 1.0, responseId: 'r' }),
      siteEvent({ type: 'link_click', link: { target: { kind: 'url' }, position: 'header' } }),
      siteEvent({ type: 'link_click', link: { target: { kind: 'page', blob: 'x'.repeat(2040) }, position: 'header' } }),
      siteEvent({ type: 'page_post_feedback_comment', feedback: { rating: 'ok', comment: 'x'.repeat(512) } }),
      siteEvent({ type: 'api_client_open', operation: { path: '/', method: 'x'.repeat(17) } }),
    ];
    for (const event of edgy) agree(event);
  });

  it("answers an invalid event with zod's words, naming its index and field", () => {
    expect(() => validateEvent(siteEvent({ session: { visitorId: '' } }), 7)).toThrow('events[7].session.visitorId: must not be empty');
    expect(() => validateEvent(siteEvent({ location: { url: 'docs' } }), 2)).toThrow('events[2].location.url: must be an http(s) URL');
  });
});
