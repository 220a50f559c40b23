/**
 * A year of synthetic visitor traffic for `npm run bench:insights`: deterministic, so runs compare. 50,000
 * visitors with the browsers of their user agents, a few pages drawing most views, some visitor-auth
 * claims, and the event kinds in realistic shares.
 */
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
];
const PLANS = ['free', 'pro', 'team', 'enterprise'];
const YEAR = 365 * 24 * 3_600_000;

/** Deterministic pseudo-random numbers (mulberry32), so runs are comparable. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The site events go to, and the ids their locations name. */
export type TrafficSite = { id: string; organization: string; space: string; siteSpace: string };

/**
 * Events `from`..`to` of a run of `total` events spread over the year before `end`, in time order (as
 * traffic arrives), for `site`.
 */
export function events(site: TrafficSite, from: number, to: number, total: number, end: number) {
  const start = end - YEAR + 60_000;
  const next = random(from + 1);
  const out = [];
  for (let i = from; i < to; i++) {
    const roll = next();
    const visitor = Math.floor(next() * 50_000);
    const page = Math.floor(Math.pow(next(), 2) * 200); // a few pages draw most views
    const type = roll < 0.85 ? 'page_view' : roll < 0.9 ? 'search_type_query' : roll < 0.93 ? 'page_post_feedback' : roll < 0.96 ? 'link_click' : 'search_open';
    out.push({
      type,
      session: {
        visitorId: `v${visitor}`,
        sessionId: `v${visitor}-s${Math.floor(i / 5_000)}`,
        cookies: {},
        userAgent: AGENTS[visitor % AGENTS.length],
        language: visitor % 3 ? 'en' : 'fr',
        referrer: visitor % 4 ? null : 'https://www.google.com/',
        ...(visitor % 10 === 0 ? { visitorAuthClaims: { plan: PLANS[visitor % PLANS.length] } } : {}),
      },
      location: {
        url: `https://docs.example.com/page-${page}`,
        siteSection: null,
        siteSpace: site.siteSpace,
        siteShareKey: null,
        space: site.space,
        revision: null,
        page: `page-${page}`,
      },
      timestamp: new Date(start + Math.floor(((i + next()) / total) * (YEAR - 120_000))).toISOString(),
      ...(type === 'search_type_query' ? { query: `query ${page % 40}` } : {}),
      ...(type === 'page_post_feedback' ? { feedback: { rating: ['bad', 'ok', 'good'][visitor % 3] } } : {}),
      ...(type === 'link_click' ? { link: { target: { kind: 'url', url: 'https://github.com/acme' }, position: 'content' } } : {}),
    });
  }
  return out;
}
