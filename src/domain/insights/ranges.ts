import { badRequest } from '../../kernel/errors.js';

/** A half-open interval of time [from, to). */
export type TimeRange = { from: Date; to: Date };

const DAY = 24 * 3_600_000;

/** The reference's preset ranges, each ending now (inclusive). */
const PRESETS: Record<string, (now: Date) => Date> = {
  lastYear: (now) => shiftMonths(now, -12),
  last3Months: (now) => shiftMonths(now, -3),
  last30Days: (now) => new Date(now.getTime() - 30 * DAY),
  last7Days: (now) => new Date(now.getTime() - 7 * DAY),
  last24Hours: (now) => new Date(now.getTime() - DAY),
};
export const RANGE_PRESETS = Object.keys(PRESETS);

function shiftMonths(time: Date, months: number): Date {
  const shifted = new Date(time);
  shifted.setUTCMonth(shifted.getUTCMonth() + months);
  return shifted;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 date-time with a zone, as the reference's Timestamp. */
export const isIsoTime = (value: unknown): value is string => typeof value === 'string' && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value));

function instant(value: unknown, at: string): Date {
  if (!isIsoTime(value)) throw badRequest(`${at}: must be an ISO 8601 date-time`);
  return new Date(value);
}

/** The time range of a query: a preset ending now, or `{from, to}` (from inclusive, to exclusive). */
export function queryRange(range: unknown, now: Date): TimeRange {
  if (typeof range === 'string') {
    const start = Object.hasOwn(PRESETS, range) ? PRESETS[range] : undefined;
    if (!start) throw badRequest(`range: must be one of: ${RANGE_PRESETS.join(', ')}, or {from, to}`);
    return { from: start(now), to: new Date(now.getTime() + 1) };
  }
  if (typeof range !== 'object' || range === null || Array.isArray(range))
    throw badRequest(`range: must be one of: ${RANGE_PRESETS.join(', ')}, or {from, to}`);
  const extra = Object.keys(range).find((key) => key !== 'from' && key !== 'to');
  if (extra) throw badRequest(`range.${extra}: unknown field`);
  const { from, to } = range as { from?: unknown; to?: unknown };
  if (from === undefined) throw badRequest('range.from: is required');
  if (to === undefined) throw badRequest('range.to: is required');
  const result = { from: instant(from, 'range.from'), to: instant(to, 'range.to') };
  if (result.from >= result.to) throw badRequest('range.to: must be after range.from');
  return result;
}
