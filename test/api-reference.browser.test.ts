import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';
import { newUser } from './support/factories.js';
import { useTestServer } from './support/server.js';

/**
 * The REST reference page at /docs (Swagger UI, served by this server): it loads with no request
 * beyond the server's origin, takes a bearer token and runs an operation with "Try it out".
 * `SAVE_SCREENSHOTS=1` also writes docs/images/api-reference.png.
 */

const server = useTestServer();
const browser = useBrowser();

describe('/docs', () => {
  it('renders the generated reference offline and runs getAuthenticatedUser with a bearer token', async () => {
    const caller = await newUser(server, { displayName: 'Ada Reference' });
    const page = await browser.page(server.url);
    const answer = await page.goto(`${server.url}/docs`);
    expect(answer?.status()).toBe(200);
    await page.locator('.swagger-ui .info .title').waitFor();
    expect(await page.locator('.swagger-ui .info .title').textContent()).toContain('Docs platform management API');

    // PUBLIC_URL of the test server (http://docs.test) is not where it listens: take the page's own server.
    await page.locator('.servers select').selectOption('/v1');

    await page.locator('.auth-wrapper .btn.authorize').click();
    await page.locator('.modal-ux input[type=text], .modal-ux input[type=password]').first().fill(caller.token);
    await page.locator('.modal-ux .auth-btn-wrapper .btn.authorize').click();
    await page.locator('.modal-ux .btn-done').click();

    await page.locator('#operations-tag-users').click();
    const operation = page.locator('#operations-users-getAuthenticatedUser');
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('.try-out__btn').click();
    const sent = page.waitForRequest((request) => request.url() === `${server.url}/v1/user`);
    await operation.locator('.btn.execute').click();
    expect((await sent).headers().authorization).toBe(`Bearer ${caller.token}`);

    const live = operation.locator('.live-responses-table .response');
    await live.first().waitFor();
    expect((await live.locator('.response-col_status').first().textContent())?.trim()).toBe('200');
    const shown = await live.locator('.response-col_description').first().textContent();
    expect(shown).toContain(caller.user.email);
    expect(shown).toContain('Ada Reference');

    if (process.env.SAVE_SCREENSHOTS) {
      // The top of the page: title, servers, Authorize (locked: a token is set) and the first operations.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: fileURLToPath(new URL('../docs/images/api-reference.png', import.meta.url)) });
    }
    expect(browser.foreignRequests).toEqual([]);
  }, 60_000);
});
