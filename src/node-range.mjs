/*
 * package.json's `engines.node` and whether a Node.js version is in it, without checking anything on
 * import (src/supported-node.mjs checks; scripts/launch.mjs asks before it fetches Node.js 24). Plain
 * JavaScript without newer syntax, as it must run where the rest of the server would not.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** package.json's `engines.node`: of the nearest package.json above this file (from src/ and dist/src/ alike). */
export function requiredNodeRange() {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    if (dirname(dir) === dir) throw new Error('no package.json above ' + fileURLToPath(import.meta.url));
    dir = dirname(dir);
  }
  const engines = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).engines;
  if (!engines || typeof engines.node !== 'string') throw new Error('package.json in ' + dir + ' has no engines.node');
  return engines.node;
}

/** @param {string} version `22.17.0`, `v22.17`, `22`: missing parts count as 0 */
function parts(version) {
  const numbers = version.replace(/^v/, '').split('.');
  return [0, 1, 2].map((at) => parseInt(numbers[at] || '0', 10));
}

/** @param {number[]} a @param {number[]} b */
function compare(a, b) {
  for (let at = 0; at < 3; at++) if (a[at] !== b[at]) return a[at] - b[at];
  return 0;
}

/**
 * Whether `version` is in `range`, in the subset of npm's range syntax that engines fields use:
 * alternatives joined by `||`, each one or more of `>=X.Y.Z`, `<X.Y.Z` and `^X.Y.Z` (minor and patch
 * may be left out). Any other form throws, so that a change to package.json is not misread.
 * @param {string} version
 * @param {string} range
 */
export function satisfies(version, range) {
  const found = parts(version);
  return range.split('||').some((alternative) => {
    const comparators = alternative.trim().split(/\s+/);
    return comparators.every((comparator) => {
      const match = /^(>=|<|\^)\s*v?(\d+(?:\.\d+){0,2})$/.exec(comparator);
      if (!match) throw new Error('cannot read the Node.js range "' + range + '" (package.json engines.node): use >=, < or ^');
      const bound = parts(match[2]);
      if (match[1] === '>=') return compare(found, bound) >= 0;
      if (match[1] === '<') return compare(found, bound) < 0;
      return compare(found, bound) >= 0 && found[0] === bound[0];
    });
  });
}

/**
 * The line an unsupported Node.js gets, or null when `version` is in `range`.
 * @param {string} version
 * @param {string} range
 */
export function unsupportedNodeMessage(version, range) {
  if (satisfies(version, range)) return null;
  return (
    'error: Node.js ' +
    version.replace(/^v?/, 'v') +
    ' is not supported: this server needs Node.js ' +
    range +
    ' (package.json "engines"); install Node.js 24 LTS (.nvmrc)'
  );
}
