import { accessSync, constants } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** Debian's Chromium (`.ci/run` installs it) or CHROMIUM_PATH; tests never download a browser of their own. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const HOW_TO_GET_IT = 'install it (`apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome';

function chromiumFound(): boolean {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// As the machine's notes advise: no background networking (the network is closed), no sandbox as root.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * One headless Chromium for the enclosing file, launched in beforeAll and closed in afterAll; each
 * `page()` is a fresh context (no shared storage), closed with the browser. Requests the page makes
 * to anything but `allowedOrigin` are recorded in `foreignRequests` and aborted: a page that needs the
 * internet fails its test instead of hanging. Without a browser the file's tests are skipped with a
 * notice naming how to get one, or fail when REQUIRE_BROWSER is set (as .ci/run does).
 */
export function useBrowser() {
  let browser: Browser | undefined;
  const foreignRequests: string[] = [];
  if (chromiumFound()) {
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
    });
  } else if (process.env.REQUIRE_BROWSER) {
    // .ci/run sets it: there, a missing browser fails the file's tests.
    beforeAll(() => {
      throw new Error(`REQUIRE_BROWSER is set and there is no Chromium at ${CHROMIUM}: ${HOW_TO_GET_IT}`);
    });
  } else {
    // `npm test` on a fresh machine: the file's tests are skipped, saying why.
    const notice = `browser tests skipped: no Chromium at ${CHROMIUM}; ${HOW_TO_GET_IT}`;
    console.warn(notice);
    beforeEach((context) => context.skip(notice));
  }
  return {
    foreignRequests,
    async page(allowedOrigin: string): Promise<Page> {
      if (!browser) throw new Error('useBrowser: the browser starts in beforeAll');
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(allowedOrigin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
        foreignRequests.push(url);
        return route.abort();
      });
      return context.newPage();
    },
  };
}

type CodeMirrorElement = Element & { CodeMirror: { getValue(): string; setValue(value: string): void } };

/** The visible GraphiQL editor (CodeMirror 5) under `selector`: its text, and setting it. */
export const editor = (page: Page, selector: string) => {
  const element = page.locator(`${selector} .CodeMirror:visible`);
  return {
    text: () => element.evaluate((node) => (node as unknown as CodeMirrorElement).CodeMirror.getValue()),
    set: (value: string) => element.evaluate((node, text) => (node as unknown as CodeMirrorElement).CodeMirror.setValue(text), value),
  };
};
