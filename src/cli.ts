// First: on a Node.js that package.json's engines does not allow, one line and exit 1 before any other module runs.
import './supported-node.mjs';
import { runCli } from './cli/program.js';

/** The admin command line; see src/cli/program.ts and `npm run -s cli -- --help`. */
// The database is opened with every area (cli-database.ts), loaded only by commands that run operations.
process.exitCode = await runCli(process.argv.slice(2), process, async (config) => (await import('./cli-database.js')).inProcess(config));
