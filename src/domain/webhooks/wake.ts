import type { Clock } from '../../kernel/clock.js';
import type { Orm } from '../../kernel/database.js';
import type { EventHub } from '../../events/hub.js';
import type { Logger } from '../../kernel/logger.js';
import { FAN_OUT_BATCH, fanOutEvents } from './fan-out.js';

/**
 * Fans events out as soon as their notices arrive (the poll job catches whatever is missed): one run at
 * a time in this process, in bounded batches; notices that arrive meanwhile make it run once more.
 * Answers the function that stops listening.
 */
export function fanOutOnNotice(orm: Orm, events: EventHub, clock: Clock, logger: Logger): () => void {
  let running = false;
  let again = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        while ((await orm.em.fork().transactional((tx) => fanOutEvents(tx, clock.now()))) === FAN_OUT_BATCH);
      } while (again);
    } catch (err) {
      logger.warn({ err }, 'webhook fan-out on notice failed: the poll takes the events');
    } finally {
      running = false;
    }
  };
  const stopNotices = events.on((notice) => {
    if (notice.outcome === 'succeeded') void run();
  });
  const stopResumes = events.onResume(() => void run());
  return () => {
    stopNotices();
    stopResumes();
  };
}
