/**
 * The build: TypeScript → dist/ (tsc, with source maps), the SDL files the server reads beside the
 * compiled modules, and a stamp that says which sources dist/ was built from. Plain JavaScript, so that
 * it runs where only Node is (the `prepare` lifecycle of `npm install`, the launcher of `npm start`).
 *
 *   node scripts/build.mjs                        npm run build: type-checked
 *   node scripts/build.mjs --if-outdated          the prepare lifecycle: only when the sources changed,
 *                                                 and a note instead of a failure where it cannot build
 *   node scripts/build.mjs --no-check --out-dir X a build elsewhere, without the type check (tests)
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

export const root = join(import.meta.dirname, '..');
export const distDir = join(root, 'dist');
/** Written last: a dist/ without it (an interrupted build) counts as outdated. */
const STAMP = '.build-stamp.json';
/** What the compiled output depends on. */
const INPUTS = ['src', 'rest-facade', 'tsconfig.json', 'tsconfig.build.json'];

/** The latest modification time of the inputs; directories count too, so that a deleted file counts. */
function newestInput() {
  let newest = 0;
  for (const input of INPUTS) {
    const path = join(root, input);
    if (!existsSync(path)) continue;
    newest = Math.max(newest, statSync(path).mtimeMs);
    if (!statSync(path).isDirectory()) continue;
    for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/**
 * `fresh` when dist/ was built from the sources as they are (or there are no sources to build from,
 * as in a production image that holds dist/ only), `missing` or `outdated` otherwise.
 */
export function buildState() {
  const entry = join(distDir, 'src', 'main.js');
  if (!existsSync(join(root, 'src'))) return existsSync(entry) ? 'fresh' : 'missing';
  if (!existsSync(entry)) return 'missing';
  try {
    const stamp = JSON.parse(readFileSync(join(distDir, STAMP), 'utf8'));
    return stamp.newestInput === newestInput() ? 'fresh' : 'outdated';
  } catch {
    return 'outdated';
  }
}

/** The TypeScript compiler, or null where the development dependencies are not installed. */
export function compiler() {
  try {
    return createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    return null;
  }
}

/** Builds `project` into `outDir` (dist/ by default); throws when tsc fails. */
export function build({ outDir = distDir, check = true, project = 'tsconfig.build.json' } = {}) {
  const tsc = compiler();
  if (!tsc) throw new Error('TypeScript is not installed (an install with --omit=dev?): build where the development dependencies are');
  // Read before compiling: a source saved during the build leaves dist/ outdated.
  const sources = newestInput();
  rmSync(outDir, { recursive: true, force: true });
  execFileSync(process.execPath, [tsc, '-p', project, '--outDir', outDir, ...(check ? [] : ['--noCheck'])], { cwd: root, stdio: 'inherit' });
  copySchemaFiles(outDir);
  writeFileSync(join(outDir, STAMP), JSON.stringify({ newestInput: sources }) + '\n');
}

/** The SDL files the server reads at start-up (base.graphql, every area's schema.graphql), which tsc leaves out. */
function copySchemaFiles(outDir) {
  for (const entry of readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.graphql')) continue;
    const from = join(entry.parentPath, entry.name);
    cpSync(from, join(outDir, relative(root, from)));
  }
}

function main(args) {
  const outDirAt = args.indexOf('--out-dir');
  const outDir = outDirAt >= 0 ? join(root, args[outDirAt + 1]) : distDir;
  if (!args.includes('--if-outdated')) return build({ outDir, check: !args.includes('--no-check') });
  // The prepare lifecycle: npm install must not fail where no build is possible or needed.
  if (!existsSync(join(root, 'src'))) {
    console.error('build: no sources yet (an install before they are copied): not built');
  } else if (buildState() === 'fresh') {
    console.error('build: dist/ is up to date');
  } else if (!compiler()) {
    console.error('build: TypeScript is not installed (--omit=dev): dist/ not built; `npm start` needs a dist/ built from these sources');
  } else {
    build({ outDir });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    // tsc has printed its errors already.
    if (!(error instanceof Error && 'status' in error)) console.error(`build: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
