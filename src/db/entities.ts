import type { Options } from '@mikro-orm/postgresql';
import { areas } from '../areas.js';
import { ServerSecret } from '../auth/entities.js';
import { DomainEvent } from '../events/entities.js';
import { InstanceSetting } from '../instances/entities.js';
import { Job } from '../jobs/entities.js';

type Entities = NonNullable<Options['entities']>;

/** Every entity the ORM knows: the platform's own, then each area's (a new one also needs a migration). */
export const entities: Entities = [Job, ServerSecret, InstanceSetting, DomainEvent, ...areas.flatMap((area): Entities => ('entities' in area ? area.entities : []))];
