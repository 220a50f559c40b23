/**
 * `npm start`: runs the compiled server (dist/src/main.js), building it first when the sources are
 * newer than dist/ (`npm install` builds it already, through the prepare lifecycle). The server runs in
 * this process, not a child, so that `node scripts/start.mjs` under a supervisor gets its signals.
 */
// First: on a Node.js that package.json's engines does not allow, one line and exit 1 before anything else runs.
import '../src/supported-node.mjs';
import { build, buildState, compiler } from './build.mjs';

const state = buildState();
if (state !== 'fresh') {
  if (!compiler()) {
    process.stderr.write(
      `error: dist/ is ${state === 'missing' ? 'missing' : 'older than the sources'} and TypeScript is not installed (an install with --omit=dev): run \`npm run build\` where the development dependencies are installed, or install them\n`,
    );
    process.exit(1);
  }
  process.stderr.write(
    `dist/ is ${state === 'missing' ? 'missing' : 'older than the sources'}: building it (no type check; \`npm run typecheck\` does that)\n`,
  );
  try {
    // Type errors do not stop a start: tsc emits what the sources say, and the type check is its own step.
    build({ check: false });
  } catch {
    process.stderr.write('error: the build failed (above)\n');
    process.exit(1);
  }
}
await import('../dist/src/main.js');
