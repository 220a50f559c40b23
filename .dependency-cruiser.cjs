/**
 * The layers and faces of the code (docs/architecture.md), checked by `npm run lint` (and so by CI).
 * An area is a folder under src/domain/ (the site family's sub-areas sections, site, site-spaces and
 * share-links are areas of their own; the rest of src/domain/sites/ is the `sites` area); its index.ts is
 * its public face, its area.ts the manifest that src/areas.ts lists.
 */
const AREA = '(?:sites/(?:sections|site|site-spaces|share-links)|[^/]+)';
const FACE = `^src/domain/${AREA}/index\\.ts$`;
/** Below the areas: what every area stands on, which must not know any area. */
const BELOW = '^src/(kernel|db|auth|jobs|graphql|http|cli|events|net|metrics|rate-limits|backup|instances)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No module needs itself, through any chain of imports (type imports included).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'area-through-its-face',
      comment: "An area uses another only through that area's index.ts.",
      severity: 'error',
      from: { path: `^src/domain/(${AREA})/` },
      to: { path: '^src/domain/', pathNot: [`^src/domain/$1/`, FACE] },
    },
    {
      name: 'sites-through-faces',
      comment: "The sites area's shared part uses its sub-areas only through their index.ts.",
      severity: 'error',
      from: { path: '^src/domain/sites/', pathNot: '^src/domain/sites/(sections|site|site-spaces|share-links)/' },
      to: { path: '^src/domain/sites/(sections|site|site-spaces|share-links)/', pathNot: FACE },
    },
    {
      name: 'wiring-through-faces',
      comment: 'The wiring and the doors use an area only through its index.ts; src/areas.ts alone lists the manifests (area.ts).',
      severity: 'error',
      from: { path: '^(src|rest-facade)/', pathNot: ['^src/domain/', '^src/areas\\.ts$'] },
      to: { path: '^src/domain/', pathNot: FACE },
    },
    {
      name: 'manifests-from-the-list',
      comment: 'Only src/areas.ts imports an area manifest.',
      severity: 'error',
      from: { pathNot: '^src/areas\\.ts$' },
      to: { path: `^src/domain/${AREA}/area\\.ts$` },
    },
    {
      name: 'nothing-below-knows-an-area',
      comment: 'The kernel and the infrastructure under the areas import no area, nor the list of them: what an area contributes, it declares on its manifest.',
      severity: 'error',
      from: { path: BELOW },
      to: { path: ['^src/domain/', '^src/areas\\.ts$'] },
    },
    {
      name: 'domain-not-to-wiring',
      comment:
        'Areas stand on the kernel and the infrastructure (HTTP and GraphQL helpers included), never on the REST facade, the command line or the process wiring that assembles them.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: ['^rest-facade/', '^src/cli/', '^src/(app|server|main|http-server|areas|cli|cli-database|provision|migrate)\\.ts$'] },
    },
    {
      name: 'frozen-migrations',
      comment: 'A migration is frozen SQL: it imports nothing from src/ outside src/db/migrations/.',
      severity: 'error',
      from: { path: '^src/db/migrations/' },
      to: { path: '^src/', pathNot: '^src/db/migrations/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
