import { type Viewer } from '../kernel/viewer.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Loaders } from '../kernel/request-loaders.js';
import type { Area } from '../kernel/area.js';

type Factory = NonNullable<Area['loaders']>;

const EM = Symbol('em');
const VIEWER = Symbol('viewer');
const MADE = Symbol('made');
type Request = { [EM]: EntityManager; [VIEWER]: Viewer | null; [MADE]: (object | undefined)[] };

/**
 * The prototype of every request's loaders, per list of areas: a getter per loader that runs its area's
 * factory the first time the request reads any of that area's loaders. Known once the first request has
 * made every area's loaders (a cache that can be lost).
 */
const lazyLoaders = new WeakMap<readonly Area[], object>();

function prototypeOf(factories: Factory[], made: object[]): object {
  const prototype = {};
  made.forEach((loaders, index) => {
    for (const name of Object.keys(loaders)) {
      Object.defineProperty(prototype, name, {
        get(this: Request) {
          const area = (this[MADE][index] ??= factories[index](this[EM], this[VIEWER], this as unknown as Loaders));
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
export function createLoaders(areas: readonly Area[], em: EntityManager, viewer: Viewer | null): Loaders {
  let prototype = lazyLoaders.get(areas);
  if (!prototype) {
    // Made once per list of areas, to learn every loader's name.
    const factories = areas.flatMap((area) => (area.loaders ? [area.loaders] : []));
    const loaders = {} as Loaders;
    const made = factories.map((factory) => {
      const own = factory(em, viewer, loaders);
      Object.assign(loaders, own);
      return own;
    });
    prototype = prototypeOf(factories, made);
    lazyLoaders.set(areas, prototype);
  }
  const request: Request = Object.create(prototype);
  request[EM] = em;
  request[VIEWER] = viewer;
  request[MADE] = [];
  return request as unknown as Loaders;
}

/** Forgets everything the request's loaders hold: each area's loaders are made afresh when next read. */
export function forgetLoaded(loaders: Loaders): void {
  (loaders as unknown as Request)[MADE] = [];
}
