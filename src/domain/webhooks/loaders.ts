import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsWhereIn } from '../../db/statements.js';
import { groupLoader } from '../../kernel/loader.js';
import { WebhookDeliveryAttempt } from './entities.js';

export function webhookLoaders(em: EntityManager) {
  return {
    /** The attempts of each delivery, first to last (a page of deliveries reads them in one statement). */
    webhookDeliveryAttempts: groupLoader(
      (deliveryIds: string[]) => rowsWhereIn(em, WebhookDeliveryAttempt, 'delivery', deliveryIds, { attempt: 'asc' }),
      (attempt) => attempt.delivery,
    ),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof webhookLoaders> {}
}
