import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';
import { newOrganization, newUser } from './support/factories.js';
import { useTestServer, type TestServer } from './support/server.js';

/**
 * The REST reference page at /docs (Swagger UI, served by this server): it loads with no request
 * beyond the server's origin, takes a bearer token and runs an operation with "Try it out", on the
 * server that served the page whether PUBLIC_URL is set elsewhere or not set at all.
 * `SAVE_SCREENSHOTS=1` also writes docs/images/api-reference.png.
 */

const browser = useBrowser();

/** Opens /docs on the server's own address (127.0.0.1) and sets `token` in Authorize. */
async function openReference(server: TestServer, token: string): Promise<Page> {
  const page = await browser.page(server.url);
  const answer = await page.goto(`${server.url}/docs`);
  expect(answer?.status()).toBe(200);
  await page.locator('.swagger-ui .info .title').waitFor();
  expect(await page.locator('.swagger-ui .info .title').textContent()).toContain('Docs platform management API');

  await page.locator('.auth-wrapper .btn.authorize').click();
  await page.locator('.modal-ux input[type=text], .modal-ux input[type=password]').first().fill(token);
  await page.locator('.modal-ux .auth-btn-wrapper .btn.authorize').click();
  await page.locator('.modal-ux .btn-done').click();
  return page;
}

/** Runs the operation `operationId` of `tag` with "Try it out" → Execute; its live answer's status and body as shown. */
async function tryOut(page: Page, tag: string, operationId: string, expectedUrl: string, token: string) {
  await page.locator(`#operations-tag-${tag}`).click();
  const operation = page.locator(`#operations-${tag}-${operationId}`);
  await operation.locator('.opblock-summary').first().click();
  await operation.locator('.try-out__btn').click();
  const sent = page.waitForRequest((request) => request.url().split('?')[0] === expectedUrl);
  await operation.locator('.btn.execute').click();
  expect((await sent).headers().authorization).toBe(`Bearer ${token}`);

  const live = operation.locator('.live-responses-table .response');
  await live.first().waitFor();
  return {
    status: (await live.locator('.response-col_status').first().textContent())?.trim(),
    body: (await live.locator('.response-col_description').first().textContent()) ?? '',
  };
}

describe('/docs with PUBLIC_URL set to another address than the page', () => {
  const server = useTestServer();

  it("renders the generated reference offline, calls the page's own server and runs getAuthenticatedUser with a bearer token", async () => {
    const caller = await newUser(server, { displayName: 'Ada Reference' });
    const page = await openReference(server, caller.token);

    // PUBLIC_URL (http://docs.test) comes first in the document; the page picks the relative server.
    const servers = page.locator('.servers select');
    expect(await servers.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))).toEqual([
      'http://docs.test/v1',
      '/v1',
    ]);
    expect(await servers.inputValue()).toBe('/v1');

    const shown = await tryOut(page, 'users', 'getAuthenticatedUser', `${server.url}/v1/user`, caller.token);
    expect(shown.status).toBe('200');
    expect(shown.body).toContain(caller.user.email);
    expect(shown.body).toContain('Ada Reference');

    if (process.env.SAVE_SCREENSHOTS) {
      // The top of the page: title, servers, Authorize (locked: a token is set) and the first operations.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: fileURLToPath(new URL('../docs/images/api-reference.png', import.meta.url)) });
    }
    expect(browser.foreignRequests).toEqual([]);
  }, 60_000);
});

describe('/docs without PUBLIC_URL, opened at 127.0.0.1', () => {
  const server = useTestServer({ PUBLIC_URL: '' });

  it('offers the relative server only, and "Try it out" answers listOrganizationsForAuthenticatedUser', async () => {
    expect(server.deps.config.publicUrlConfigured).toBe(false);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const caller = await newUser(server);
    const organization = await newOrganization(server, caller, { title: 'Reference Works' });
    const page = await openReference(server, caller.token);

    const servers = page.locator('.servers select');
    expect(await servers.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))).toEqual(['/v1']);
    expect(await servers.inputValue()).toBe('/v1');

    const shown = await tryOut(page, 'organizations', 'listOrganizationsForAuthenticatedUser', `${server.url}/v1/orgs`, caller.token);
    expect(shown.status).toBe('200');
    expect(shown.body).toContain(organization.id);
    expect(shown.body).toContain('Reference Works');
    expect(shown.body).not.toContain('Failed to fetch');
    expect(browser.foreignRequests).toEqual([]);
  }, 60_000);
});
