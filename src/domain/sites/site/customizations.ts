import type { SiteRow } from '../index.js';

/**
 * The customization tree of a site as its published view reports it: every key of the reference's
 * `SiteCustomizationSettings` (those it requires and the optional ones the contract lists), with the
 * platform's defaults. Sites cannot be customized yet, so every site gets the defaults; only the
 * title follows the site.
 *
 * Colours are the defaults of the platform's own palette (primary #346DDB, neutral #787878, and the
 * hint colours). Optional keys without a meaningful default (logos, copyright, the announcement's
 * link, tint) are left out rather than invented.
 */
export function defaultSiteCustomization(site: SiteRow) {
  const themed = (color: string) => ({ light: color, dark: color });
  return {
    title: site.title,
    styling: {
      theme: 'clean',
      primaryColor: themed('#346DDB'),
      infoColor: themed('#787878'),
      successColor: themed('#00C950'),
      warningColor: themed('#FE9A00'),
      dangerColor: themed('#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      // Deprecated in the reference but still required by it.
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    // The reference's "no favicon" variant: an empty object.
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    // Disabled; the reference requires a 2-128 character message even then.
    announcement: { enabled: false, message: 'Announcement', style: 'info' },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    // `aiSearch` and `ai.pageLinkSummaries` are the contract's keys; `ai.mode` is the reference's.
    aiSearch: { enabled: true },
    ai: { mode: 'search', pageLinkSummaries: { enabled: false } },
    advancedCustomization: { enabled: false },
    git: { showEditLink: false },
    pageActions: { externalAI: true, markdown: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: true },
  };
}
