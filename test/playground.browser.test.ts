import { describe, expect, it } from 'vitest';
import { newUser } from './support/factories.js';
import { editor, useBrowser } from './support/browser.js';
import { useTestServer } from './support/server.js';

/**
 * The GraphiQL playground at /graphql in Chromium: it loads from this server alone, its Docs show the
 * schema before any token is given, and a query runs with a token set in the headers editor.
 */
const server = useTestServer();
const browser = useBrowser();

describe('the GraphQL playground', () => {
  it('loads the schema without a token and runs a query with the token set in the headers editor', { timeout: 90_000 }, async () => {
    const caller = await newUser(server);
    const page = await browser.page(server.url);
    const graphqlCalls: { status: number; authorization: string | undefined }[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/graphql' && response.request().method() === 'POST') {
        graphqlCalls.push({ status: response.status(), authorization: response.request().headers().authorization });
      }
    });

    await page.goto(`${server.url}/graphql`);
    await page.locator('.graphiql-query-editor .CodeMirror').waitFor();
    // The schema came by introspection, with no Authorization header, and answered 200.
    await page.waitForFunction(() => document.querySelector('.graphiql-query-editor .CodeMirror') !== null);
    await expect.poll(() => graphqlCalls.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(graphqlCalls[0]).toEqual({ status: 200, authorization: undefined });

    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await page.locator('.graphiql-doc-explorer-root-type').first().waitFor();
    expect(await page.locator('.graphiql-doc-explorer').innerText()).toContain('Query');
    expect(await page.locator('.graphiql-doc-explorer-error').count()).toBe(0);
    expect(await page.content()).not.toContain('Error fetching schema');

    await page.getByRole('button', { name: 'Headers' }).click();
    const headers = editor(page, '.graphiql-editor-tool');
    // No placeholder header: the page starts with none.
    expect(await headers.text()).toBe('');
    await headers.set(JSON.stringify({ Authorization: `Bearer ${caller.token}` }));
    // Named as the default query is: GraphiQL sends the operation name it last parsed (debounced).
    await editor(page, '.graphiql-query-editor').set('query Overview { viewer { email } }');
    await page.getByRole('button', { name: /Execute query/ }).click();
    const result = editor(page, '.graphiql-response');
    await expect.poll(() => result.text(), { timeout: 30_000 }).toContain(caller.user.email);
    expect(JSON.parse(await result.text())).toEqual({ data: { viewer: { email: caller.user.email } } });
    expect(graphqlCalls.at(-1)).toEqual({ status: 200, authorization: `Bearer ${caller.token}` });

    expect(browser.foreignRequests).toEqual([]);
  });
});
