/**
 * Runs a script of scripts/ as production runs the server: compiled by tsc (without the type check,
 * into .bench-build/, beside the compiled sources it imports) rather than transformed by tsx, whose
 * helpers (`__name` on every function it creates, its source maps) would weigh in the figures.
 *
 *   node [node's flags] scripts/run-compiled.mjs scripts/bench-tree.ts [arguments]
 */
import { spawn } from 'node:child_process';
import { join, relative } from 'node:path';
import { build, root } from './build.mjs';

const [script, ...args] = process.argv.slice(2);
if (!script?.endsWith('.ts')) {
  console.error('usage: run-compiled.mjs scripts/<name>.ts [arguments]');
  process.exit(2);
}
const outDir = join(root, '.bench-build');
build({ outDir, check: false, project: 'tsconfig.bench.json' });
const compiled = join(outDir, relative(root, join(process.cwd(), script)).replace(/\.ts$/, '.js'));
const child = spawn(process.execPath, [...process.execArgv, compiled, ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
