import { describe, expect, it } from 'vitest';
import { commentsPath, postComment } from './support/comments.js';
import { createSpace } from './support/content.js';
import { newOrganizationWithRoles } from './support/factories.js';
import { editor, useBrowser } from './support/browser.js';
import { useTestServer } from './support/server.js';
import { eventually } from './support/subscriptions.js';

/**
 * A subscription in the GraphiQL playground (Chromium): it runs over WebSocket to this server's
 * /graphql with the token of the headers editor, its client served by this server, and an event
 * posted meanwhile shows in the result pane.
 */
const server = useTestServer();
const browser = useBrowser();

describe('the GraphQL playground', () => {
  it('runs a subscription and shows an event as it arrives', { timeout: 90_000 }, async () => {
    const team = await newOrganizationWithRoles(server);
    const space = await createSpace(team.admin, team.organization.id);
    const page = await browser.page(server.url);
    await page.goto(`${server.url}/graphql`);
    await page.locator('.graphiql-query-editor .CodeMirror').waitFor();

    await page.getByRole('button', { name: 'Headers' }).click();
    await editor(page, '.graphiql-editor-tool').set(JSON.stringify({ Authorization: `Bearer ${team.read.token}` }));
    // Named as the default query is: GraphiQL sends the operation name it last parsed (debounced).
    await editor(page, '.graphiql-query-editor').set(`subscription Overview { spaceComments(spaceId: "${space.id}") { type payload } }`);
    const before = server.live.feed.openStreams;
    await page.getByRole('button', { name: /Execute query/ }).click();
    await eventually(() => server.live.feed.openStreams > before, 'subscribed from the playground', 30_000);

    await postComment(team.edit, commentsPath(space.id), 'Seen live in the playground');
    const result = editor(page, '.graphiql-response');
    await expect.poll(() => result.text(), { timeout: 30_000 }).toContain('Seen live in the playground');
    expect(JSON.parse(await result.text())).toMatchObject({
      data: { spaceComments: { type: 'comment.posted', payload: { body: { markdown: 'Seen live in the playground' } } } },
    });
    expect(browser.foreignRequests).toEqual([]);
  });
});
