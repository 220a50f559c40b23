import type { EntityManager } from '@mikro-orm/postgresql';
import type { Viewer } from '../auth/viewer.js';
import type { Loaders } from '../domain/common/request-loaders.js';
import { areas } from '../areas.js';

type Area = (typeof areas)[number];
type LoadersOf<A> = A extends { loaders: (...args: never[]) => infer L } ? L : never;
type Intersection<U> = (U extends unknown ? (all: U) => void : never) extends (all: infer I) => void ? I : never;
/** What the areas' factories make together; it must be every loader the Loaders type names. */
type Made = Intersection<LoadersOf<Area>>;

/**
 * All DataLoaders of one request, from the areas' factories in the order of src/areas.ts. Modules reach
 * loaders only through the context, never directly.
 */
export function createLoaders(em: EntityManager, viewer: Viewer | null): Loaders {
  const loaders = {} as Made;
  for (const area of areas) {
    if ('loaders' in area) Object.assign(loaders, area.loaders(em, viewer, loaders));
  }
  return loaders;
}

export type { Loaders };
