import { areaEntities } from './areas.js';
import { ServerSecret } from './auth/entities.js';
import type { Entities } from './db/entities.js';
import { DomainEvent } from './events/entities.js';
import { InstanceSetting } from './instances/entities.js';
import { Job } from './jobs/entities.js';
import { IdempotencyRecord } from './http/idempotency/entities.js';

/** The platform's own entities; the areas' come with each area (a new one also needs a migration). */
export const platformEntities: Entities = [Job, ServerSecret, InstanceSetting, DomainEvent, IdempotencyRecord];

/** Every entity the ORM is opened with (`openOrm`): the platform's and the areas'. */
export const entities: Entities = [...platformEntities, ...areaEntities];
