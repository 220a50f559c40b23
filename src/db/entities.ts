import type { Options } from '@mikro-orm/postgresql';

export type Entities = NonNullable<Options['entities']>;
