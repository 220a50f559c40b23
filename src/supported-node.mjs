// @ts-check
/*
 * Refuses a Node.js that package.json's `engines.node` does not allow: one line on stderr naming the
 * version found and the one needed, exit 1. Importing it does the check. Each entry point (src/main.ts,
 * src/cli.ts, src/migrate.ts, scripts/start.mjs) imports it first: ES modules run in import order,
 * so no other module's code runs before it. Plain JavaScript without newer syntax (no `?.`, `??`,
 * class fields), as it must run where the rest of the server would not.
 *
 * Also a script: `node src/supported-node.mjs` exits 0 on a supported Node.js (.ci/run asks it).
 */
import { requiredNodeRange, unsupportedNodeMessage } from './node-range.mjs';

export { requiredNodeRange, satisfies, unsupportedNodeMessage } from './node-range.mjs';

const refusal = unsupportedNodeMessage(process.versions.node, requiredNodeRange());
if (refusal) {
  process.stderr.write(refusal + '\n');
  process.exit(1);
}
