import type { GuardCheck } from '../../../kernel/checks.js';
import { noReadableSpace } from '../index.js';

/** The check that fields publishing a space on a site (a site space, a section's first one) name in their guards. */
export const siteSpaceChecks = {
  readsTheSpace: {
    description: 'read on the space named by `input.spaceId` (400 when not, like a missing space)',
    on: ['SITE'],
    reads: ['input.spaceId'],
    async run(ctx, { id, args }) {
      const spaceId = (args.input as { spaceId?: string | null }).spaceId;
      if (!spaceId) return;
      const [site, space] = await Promise.all([ctx.loaders.site.load(id), ctx.loaders.space.load(spaceId)]);
      // Missing spaces and spaces of other organizations are the service's 400 about the input.
      if (space && space.organization === site!.organization && (await ctx.policy.spaceRole(space)) === null) throw noReadableSpace('spaceId', spaceId);
    },
  },
} satisfies Record<string, GuardCheck>;
