import type { EntityManager } from '@mikro-orm/postgresql';
import type { Viewer } from '../auth/viewer.js';
import type { Loaders } from '../kernel/request-loaders.js';
import { areas } from '../areas.js';

type Area = (typeof areas)[number];
type LoadersOf<A> = A extends { loaders: (...args: never[]) => infer L } ? L : never;
type Intersection<U> = (U extends unknown ? (all: U) => void : never) extends (all: infer I) => void ? I : never;
/** What the areas' factories make together; it must be every loader the Loaders type names. */
type Made = Intersection<LoadersOf<Area>>;

const factories = areas.flatMap((area) => ('loaders' in area ? [area.loaders as (em: EntityManager, viewer: Viewer | null, all: Loaders) => object] : []));

const EM = Symbol('em');
const VIEWER = Symbol('viewer');
const MADE = Symbol('made');
type Request = { [EM]: EntityManager; [VIEWER]: Viewer | null; [MADE]: (object | undefined)[] };

/**
 * The prototype of every request's loaders: a getter per loader that runs its area's factory the first
 * time the request reads any of that area's loaders. Known once the first request has made every area's
 * loaders (a cache that can be lost).
 */
let lazyLoaders: object | undefined;

function prototypeOf(made: object[]): object {
  const prototype = {};
  made.forEach((loaders, index) => {
    for (const name of Object.keys(loaders)) {
      Object.defineProperty(prototype, name, {
        get(this: Request) {
          const area = (this[MADE][index] ??= factories[index]!(this[EM], this[VIEWER], this as unknown as Loaders));
          return (area as Record<string, unknown>)[name];
        },
        enumerable: true,
      });
    }
  });
  return prototype;
}

/**
 * The DataLoaders of one request, made lazily: a request builds only the areas' loaders it reads (a
 * factory may read loaders of other areas, which are made then). Modules reach loaders only through the
 * context, never directly.
 */
export function createLoaders(em: EntityManager, viewer: Viewer | null): Loaders {
  if (!lazyLoaders) {
    const loaders = {} as Made;
    const made = factories.map((factory) => {
      const own = factory(em, viewer, loaders);
      Object.assign(loaders, own);
      return own;
    });
    lazyLoaders = prototypeOf(made);
    return loaders;
  }
  const request: Request = Object.create(lazyLoaders);
  request[EM] = em;
  request[VIEWER] = viewer;
  request[MADE] = [];
  return request as unknown as Loaders;
}

export type { Loaders };
