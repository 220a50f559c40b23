import type { Response } from 'express';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../config.js';
import type { Orm } from '../db/database.js';
import { DomainError } from '../domain/common/errors.js';
import { factsOf } from '../http/request-facts.js';
import type { Logger } from '../logger.js';
import type { Cost } from './cost.js';
import { createLimiters, type Limiters } from './store.js';
import { subjectOf } from './subject.js';

/**
 * The request budgets of API tokens and client addresses. Both doors charge a request once they know
 * who makes it and what it is, before it runs: the answer then carries the IETF `RateLimit-*` headers,
 * and a request over its budget is refused with 429 and `Retry-After` (docs/behaviour/rate-limits.md).
 */
export class RateLimits {
  private constructor(
    private readonly limiters: Limiters,
    private readonly config: RateLimitConfig,
    private readonly logger: Logger,
  ) {}

  static async open(orm: Orm, config: RateLimitConfig, logger: Logger): Promise<RateLimits> {
    return new RateLimits(await createLimiters(orm, config), config, logger);
  }

  /**
   * Charges the request `res` answers (its token, else its client address) with `cost`, and says so in
   * the answer's headers; throws a RATE_LIMITED DomainError (429, Retry-After) when it is over budget.
   */
  async charge(res: Response, cost: Cost): Promise<void> {
    const limiter = this.limiters.byClass[cost.rateClass];
    if (!limiter) return;
    const subject = subjectOf(factsOf(res), res.req.ip);
    let verdict: RateLimiterRes;
    let refused = false;
    try {
      verdict = await limiter.consume(subject.key, cost.points);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        // Only when the in-memory insurance failed too: the request is served rather than failed.
        this.logger.warn({ err: rejection }, 'rate limit not checked');
        return;
      }
      verdict = rejection;
      refused = true;
    }
    const limit = this.config[cost.rateClass];
    const resetS = Math.max(0, Math.ceil(verdict.msBeforeNext / 1000));
    res.set({
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(verdict.remainingPoints),
      'RateLimit-Reset': String(resetS),
      'RateLimit-Policy': `${limit};w=${this.config.windowS}`,
    });
    if (!refused) return;
    const retryS = Math.max(1, resetS);
    throw new DomainError(
      'RATE_LIMITED',
      `Rate limit exceeded: ${limit} ${cost.rateClass} per ${this.config.windowS} s for this ${subject.kind}; retry in ${retryS} s`,
      { headers: { 'retry-after': String(retryS) } },
    );
  }

  /**
   * After authentication failed: a refused token is charged to the client address (so guessing tokens
   * spends that address's budget), and the failure is thrown on, or the 429 once the budget is spent.
   */
  async afterFailedAuthentication(res: Response, cost: Cost, error: unknown): Promise<never> {
    if (error instanceof DomainError && error.code === 'UNAUTHENTICATED') await this.charge(res, cost);
    throw error;
  }

  stop(): void {
    this.limiters.stop();
  }
}
