import type { Response } from 'express';
import { DomainError } from '../kernel/errors.js';
import { factsOf } from '../http/request-facts.js';
import type { Cost } from './cost.js';
import type { RateLimits } from './rate-limits.js';
import { subjectOf } from './subject.js';

/**
 * Charges the request `res` answers (its token, else its client address) with `cost`, before it runs,
 * and says so in the answer's IETF `RateLimit-*` headers; throws a RATE_LIMITED DomainError (429 with
 * Retry-After, on both doors) when the request is over its budget.
 */
export async function chargeRequest(rateLimits: RateLimits, res: Response, cost: Cost): Promise<void> {
  const subject = subjectOf(factsOf(res).tokenId, res.req.ip);
  const verdict = await rateLimits.consume(subject, cost);
  if (!verdict) return;
  const { limit, windowS, remaining, resetS } = verdict;
  res.set({
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(remaining),
    'RateLimit-Reset': String(resetS),
    'RateLimit-Policy': `${limit};w=${windowS}`,
  });
  if (!verdict.refused) return;
  const retryS = Math.max(1, resetS);
  throw new DomainError('RATE_LIMITED', `Rate limit exceeded: ${limit} ${cost.rateClass} per ${windowS} s for this ${subject.kind}; retry in ${retryS} s`, {
    headers: { 'retry-after': String(retryS) },
  });
}

/**
 * After authentication failed: a refused token is charged to the client address (so guessing tokens
 * spends that address's budget), and the failure is thrown on, or the 429 once the budget is spent.
 */
export async function chargeFailedAuthentication(rateLimits: RateLimits, res: Response, cost: Cost, error: unknown): Promise<never> {
  if (error instanceof DomainError && error.code === 'UNAUTHENTICATED') await chargeRequest(rateLimits, res, cost);
  throw error;
}
