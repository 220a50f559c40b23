import type { TransactionCheck } from '../../kernel/checks.js';
import type { SpaceRow } from '../spaces/index.js';
import { assertEditable } from './service.js';

/** The rule that fields changing a space's content name in their guards. */
export const changeRequestChecks = {
  liveSpace: {
    description: 'the space is live (409 when locked or deleted), checked inside the writing transaction',
    on: ['SPACE'],
    reads: [],
    enforce: assertEditable,
  },
} satisfies Record<string, TransactionCheck<SpaceRow>>;
