import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../kernel/config.js';
import type { Orm } from '../kernel/database.js';
import type { Logger } from '../kernel/logger.js';
import type { Cost } from './cost.js';
import { createLimiters, type Limiters } from './store.js';
import type { Subject } from './subject.js';

/** What a charge left: the class's limit, what remains of it, when the window ends; `refused` when over. */
export type Verdict = { limit: number; windowS: number; remaining: number; resetS: number; refused: boolean };

/**
 * The request budgets of API tokens and client addresses, by class (docs/behaviour/rate-limits.md).
 * How the doors charge a request and answer is `charge.ts`.
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

  /** Takes `cost` from the subject's budget; null when the class has no limit (or could not be checked). */
  async consume(subject: Subject, cost: Cost): Promise<Verdict | null> {
    const limiter = this.limiters.byClass[cost.rateClass];
    if (!limiter) return null;
    let result: RateLimiterRes;
    let refused = false;
    try {
      result = await limiter.consume(subject.key, cost.points);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        // Only when the in-memory insurance failed too: the request is served rather than failed.
        this.logger.warn({ err: rejection }, 'rate limit not checked');
        return null;
      }
      result = rejection;
      refused = true;
    }
    const { windowS } = this.config;
    return {
      limit: this.config[cost.rateClass],
      windowS,
      remaining: result.remainingPoints,
      resetS: Math.max(0, Math.ceil(result.msBeforeNext / 1000)),
      refused,
    };
  }

  stop(): void {
    this.limiters.stop();
  }
}

declare module '../kernel/context.js' {
  interface AppDeps {
    rateLimits: RateLimits;
  }
}
