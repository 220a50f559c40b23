import { runCli } from './cli/program.js';

/** The admin command line; see src/cli/program.ts and `npm run -s cli -- --help`. */
process.exitCode = await runCli(process.argv.slice(2), process);
