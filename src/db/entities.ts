import type { Options } from '@mikro-orm/postgresql';
import { ServerSecret } from '../auth/entities.js';
import { DomainEvent } from '../events/entities.js';
import { InstanceSetting } from '../instances/entities.js';
import { Job } from '../jobs/entities.js';

export type Entities = NonNullable<Options['entities']>;

/** The platform's own entities; the areas' come with each area (a new one also needs a migration). */
export const platformEntities: Entities = [Job, ServerSecret, InstanceSetting, DomainEvent];
