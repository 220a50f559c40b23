import { z } from 'zod';
import { inputType } from '../../kernel/input-types.js';

/*
 * Declared only: planAggregate (aggregate.ts) checks the columns, conditions and order of a request
 * itself, against the whitelist of columns.
 */

const columnFields = {
  column: z.string(),
  interval: z.string().optional(),
  claim: z.string().optional(),
  precision: z.number().int().optional(),
};

export const InsightsColumnInput = inputType(
  'InsightsColumnInput',
  z
    .object(columnFields)
    .describe(
      "A column of an insights query (the reference's SiteInsightsQueryEventsColumn). `interval` (hour, day,\nweek, month) buckets `datetime`; `claim` names the visitor-auth claim of `visitorClaim` (dots reach\nnested claims); `precision` belongs to `visitorGeoPoint`.",
    ),
);

export const InsightsFilterInput = z
  .object({ ...columnFields, operator: z.string().optional(), values: z.array(z.unknown()) })
  .describe('A condition of an insights query; `operator` defaults to `in`. Counts in a condition filter groups.');

export const InsightsOrderInput = z.object({ by: InsightsColumnInput, direction: z.string() });
