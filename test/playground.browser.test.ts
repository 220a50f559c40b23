import { describe, expect, it } from 'vitest';
import { newUser } from './support/factories.js';
import { editor, useBrowser } from './support/browser.js';
import { useTestServer } from './support/server.js';

/**
 * The GraphiQL playground at /graphql in Chromium: it loads from this server alone, its Docs show the
 * schema before any token is given, a query runs with a token set in the headers editor, and the
 * setup hint at the top of the query editor is whole at every common width.
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

  // Widths of desktop screens and windows, a tablet and a phone. On a phone the wrapped hint is taller
  // than the editor: its setup part (up to the Authorization header) must be in view, the rest may scroll.
  for (const width of [1920, 1400, 1024, 768, 390]) {
    it(`shows the whole setup hint, wrapped within the query editor, ${width} px wide`, { timeout: 60_000 }, async () => {
      const page = await browser.page(server.url);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/graphql`);
      const query = editor(page, '.graphiql-query-editor');
      await page.locator('.graphiql-query-editor .CodeMirror-wrap').waitFor();
      const hint = (await query.text()).split('\n').filter((line) => line.startsWith('#'));
      const setupLines = hint.findIndex((line) => line.includes('"Authorization"')) + 1;
      expect(
        hint
          .slice(0, setupLines)
          .map((line) => line.replace(/^#\s*/, ''))
          .join(' '),
      ).toContain('open the Headers tab');
      const inView = width >= 768 ? hint.length : setupLines;

      const shown = await page.locator('.graphiql-query-editor .CodeMirror:visible').evaluate(
        (element, { lines, inView }) => {
          const scroller = element.querySelector('.CodeMirror-scroll')!;
          const visible = scroller.getBoundingClientRect();
          const rendered = [...element.querySelectorAll('.CodeMirror-line')].slice(0, lines);
          // The boxes of each hint line's text, as laid out (one per wrapped row).
          const boxesOf = (line: Element) => {
            const range = document.createRange();
            range.selectNodeContents(line);
            return [...range.getClientRects()].filter((box) => box.width > 0);
          };
          const across = (box: DOMRect) => box.left >= Math.max(visible.left, 0) && box.right <= Math.min(visible.right, window.innerWidth);
          const down = (box: DOMRect) => box.top >= visible.top && box.bottom <= visible.bottom;
          return {
            // CodeMirror lays runs of spaces out as no-break spaces.
            texts: rendered.map((line) => line.textContent?.replaceAll('\u00a0', ' ')),
            overflow: scroller.scrollWidth - scroller.clientWidth,
            boxes: rendered.flatMap(boxesOf).length,
            cutAcross: rendered.flatMap(boxesOf).filter((box) => !across(box)).length,
            cutDown: rendered
              .slice(0, inView)
              .flatMap(boxesOf)
              .filter((box) => !down(box)).length,
          };
        },
        { lines: hint.length, inView },
      );

      expect(shown.texts).toEqual(hint);
      expect(shown.overflow).toBe(0);
      expect(shown.boxes).toBeGreaterThanOrEqual(hint.length);
      expect(shown.cutAcross).toBe(0);
      expect(shown.cutDown).toBe(0);
      if (process.env.SAVE_SCREENSHOTS) await page.screenshot({ path: `/tmp/playground-${width}.png` });
      expect(browser.foreignRequests).toEqual([]);
    });
  }
});
