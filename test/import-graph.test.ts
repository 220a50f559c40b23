import { describe, expect, it } from 'vitest';
import { circles, importGraph } from './support/import-graph.js';

/*
 * Layers point one way: the doors (rest-facade/, src/http/, the GraphQL server wiring) use the domain,
 * never the other way round, and no two modules need each other to load.
 */

const edges = importGraph(['src', 'rest-facade', 'scripts']);

/** What a domain area must not import: the doors and the GraphQL server's wiring. */
const DOORS = [/^rest-facade\//, /^src\/http\//, /^src\/cli\//, /^src\/(app|server|main|http-server)\.ts$/, /^src\/graphql\/(schema|jit|playground|document-limits|scalars|nul|errors|variable-errors)\.ts$/];

describe('import graph', () => {
  it('has no circle, counting imports of types too', () => {
    expect(circles(edges)).toEqual([]);
  });

  it('has no import from a domain area into a door', () => {
    const upward = edges.filter((e) => e.from.startsWith('src/domain/') && DOORS.some((door) => door.test(e.to)));
    expect(upward.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it('reads the imports it checks', () => {
    // A parser that found nothing would pass the checks above.
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({ from: 'src/app.ts', to: 'rest-facade/router.ts', typeOnly: false });
  });
});
