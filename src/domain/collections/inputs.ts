import { z } from 'zod';
import { DEFAULT_LEVELS } from '../../kernel/roles.js';
import { inputType, shownAs } from '../../kernel/input-types.js';
import { movePosition, oneOf, text } from '../../kernel/validation.js';

export const CreateCollectionInput = z.object({
  title: text({ max: 50 }).optional(),
  description: text({ max: 100 }).optional(),
  parent: shownAs('ID', z.string()).optional(),
});

export const UpdateCollectionInput = z.object({
  title: text({ max: 50 }).optional(),
  description: text({ max: 100 }).nullable().optional(),
  defaultLevel: shownAs('DefaultLevel', oneOf(DEFAULT_LEVELS)).nullable().optional(),
});

const ContentPointerInput = inputType(
  'ContentPointerInput',
  z
    .object({ type: z.string(), space: shownAs('ID', z.string()).optional(), collection: shownAs('ID', z.string()).optional() })
    .describe('A sibling reference in a position: `{type: "space", space}` or `{type: "collection", collection}`.'),
);

/**
 * A move of a space or collection: `parent` (null: the organization's top level; omitted: the same
 * parent) and/or `position` among the siblings (omitted: the end). Null for a position is refused.
 */
export const MoveContentInput = z.object({
  parent: shownAs('ID', z.string())
    .nullable()
    .optional()
    .describe("Target parent collection; null for the organization's top level; omitted keeps the parent."),
  position: inputType(
    'ContentPositionInput',
    movePosition(ContentPointerInput).describe('Where to put an item among its siblings; omitted means at the end.'),
  ).optional(),
});

/** A transfer to another organization (declared only: the service reads it as it comes). */
export const TransferInput = z.object({
  organization: shownAs('ID', z.string()).describe('Target organization.'),
  collection: shownAs('ID', z.string()).optional().describe('Optional collection of the target organization to land in (top level when omitted).'),
});
