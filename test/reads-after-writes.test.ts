/**
 * A request that writes and then reads sees its writes: whatever it commits makes it forget everything
 * it had read (loaders, lists, roles), one rule for every write. A GraphQL mutation document runs its
 * fields one after another, so one document reads, writes and reads again.
 */
import { describe, expect, it } from 'vitest';
import { createSpace } from './support/content.js';
import { newOrganizationWithSite } from './support/sites.js';
import { useTestServer } from './support/server.js';

const server = useTestServer();

const SITE_TREE = `title siteSpaces siteSpaceList { count items { title space { title } } }`;
type SiteTree = { title: string; siteSpaces: number; siteSpaceList: { count: number; items: { title: string; space: { title: string } }[] } };

describe('a request that writes', () => {
  it('reads what it wrote in its later fields: renamed spaces, added site spaces, counts and lists', async () => {
    const { organization, admin, site } = await newOrganizationWithSite(server);
    const published = await createSpace(admin, organization.id, 'Published');
    const added = await createSpace(admin, organization.id, 'Added');
    const attach = await admin.gql(`mutation($site: ID!, $space: ID!) { addSiteSpace(siteId: $site, input: { spaceId: $space }) { id } }`, {
      site: site.id,
      space: published.id,
    });
    expect(attach.errors).toBeUndefined();

    const res = await admin.gql(
      `mutation($site: ID!, $space: ID!, $added: ID!) {
        before: updateSite(id: $site, input: { title: "Before" }) { ${SITE_TREE} }
        rename: updateSpace(id: $space, input: { title: "Renamed" }) { title }
        add: addSiteSpace(siteId: $site, input: { spaceId: $added }) { title }
        after: updateSite(id: $site, input: { title: "After" }) { ${SITE_TREE} }
      }`,
      { site: site.id, space: published.id, added: added.id },
    );

    expect(res.errors).toBeUndefined();
    const data = res.data as Record<'before' | 'after', SiteTree>;
    expect(data.before).toEqual({
      title: 'Before',
      siteSpaces: 1,
      siteSpaceList: { count: 1, items: [{ title: 'Published', space: { title: 'Published' } }] },
    });
    expect(data.after).toEqual({
      title: 'After',
      siteSpaces: 2,
      siteSpaceList: {
        count: 2,
        items: [
          { title: 'Renamed', space: { title: 'Renamed' } },
          { title: 'Added', space: { title: 'Added' } },
        ],
      },
    });
  });
});
