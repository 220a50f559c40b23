import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';
import { bounded } from './cache.js';

/** What the reference's visitor columns need from a user agent. */
export type VisitorAgent = { browser: string; device: string; os: string; bot: string | null };

const BROWSERS: [RegExp, string][] = [
  [/edge/i, 'edge'],
  [/opera/i, 'opera'],
  [/^ie$|iemobile/i, 'ie'],
  [/firefox/i, 'firefox'],
  [/chrom/i, 'chrome'],
  [/safari/i, 'safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/windows/i, 'windows'],
  [/mac os|macos/i, 'macos'],
  [/ios/i, 'ios'],
  [/android/i, 'android'],
  [/linux|ubuntu|debian|fedora|chromium os|chrome os|mint|arch|centos|red hat|suse|gentoo/i, 'linux'],
];
/** The crawlers the reference names; any other bot that isbot recognises is `unknown`. */
const BOTS: [RegExp, string][] = [
  [/googlebot|google-inspectiontool|googleother/i, 'googlebot'],
  [/bingbot|bingpreview/i, 'bingbot'],
  [/duckduckbot|duckassistbot/i, 'duckduckbot'],
  [/facebookexternalhit|facebookbot|meta-externalagent/i, 'facebookbot'],
  [/applebot/i, 'applebot'],
  [/gptbot|chatgpt-user|oai-searchbot/i, 'chatgpt'],
  [/claudebot|claude-web|anthropic-ai|claude-user|claude-searchbot/i, 'anthropic'],
];
const DESKTOP_SYSTEMS = new Set(['windows', 'macos', 'linux']);

const pick = (table: [RegExp, string][], name: string | undefined) => (name ? (table.find(([pattern]) => pattern.test(name))?.[1] ?? null) : null);

function parse(userAgent: string): VisitorAgent {
  const result = new UAParser(userAgent).getResult();
  const os = pick(SYSTEMS, result.os.name) ?? 'unknown';
  const type = result.device.type;
  const device = type === 'mobile' || type === 'wearable' ? 'mobile' : type === 'tablet' ? 'tablet' : !type && DESKTOP_SYSTEMS.has(os) ? 'desktop' : 'unknown';
  const bot = pick(BOTS, userAgent) ?? (isbot(userAgent) ? 'unknown' : null);
  return { browser: pick(BROWSERS, result.browser.name) ?? 'unknown', device, os, bot };
}

/** Browser, device, OS and bot of a user agent, in the reference's values (parsing costs tens of microseconds: cached). */
export const visitorAgent = bounded(5000, parse);
