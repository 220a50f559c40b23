import { newId } from '../../src/kernel/ids.js';
import type { Caller } from './factories.js';
import { siteBase, type SiteRef } from './sites.js';

/** User agents of known browsers, devices and systems. */
export const AGENTS = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  safariIpad: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  claudebot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
} as const;

type Overrides = {
  type?: string;
  timestamp?: string;
  session?: Record<string, unknown>;
  location?: Record<string, unknown>;
  [field: string]: unknown;
};

/** A valid event (a page view unless `type` says otherwise) with fields to set over its defaults. */
export function siteEvent(overrides: Overrides = {}): Record<string, unknown> {
  const { session, location, ...rest } = overrides;
  return {
    type: 'page_view',
    session: {
      visitorId: 'visitor-1',
      sessionId: 'session-1',
      cookies: {},
      userAgent: AGENTS.chromeWindows,
      language: 'en',
      referrer: null,
      ...session,
    },
    location: {
      url: 'https://docs.example.com/start',
      siteSection: null,
      siteSpace: null,
      siteShareKey: null,
      space: null,
      revision: null,
      page: null,
      ...location,
    },
    ...rest,
  };
}

export const eventsPath = (site: SiteRef) => `${siteBase(site)}/insights/events`;
export const aggregatePath = (site: SiteRef) => `${siteBase(site)}/insights/events/aggregate`;
export const segmentsPath = (site: SiteRef) => `${siteBase(site)}/insights/visitor-segments`;

export const track = (caller: Caller, site: SiteRef, events: unknown[]) => caller.rest('POST', eventsPath(site), { events });
export const aggregate = (caller: Caller, site: SiteRef, body: Record<string, unknown>) => caller.rest('POST', aggregatePath(site), body);

/** A fresh visitor id, so tests of one site never share visitors by accident. */
export const visitor = () => `visitor-${newId()}`;
