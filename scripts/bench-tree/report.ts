import type { CpuSpent } from './cpu-sampling.js';
import type { LoadResult } from './load-generator.js';
import type { Target } from './targets.js';

/** One measurement window of one target. */
export type Window = LoadResult & { cpu: CpuSpent };

/** What the run found for a target: its windows (one per round), SQL statements per request and answer size. */
export type Measured = { target: Target; windows: Window[]; statements: number | undefined; bytes: number };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Requests per second, the mean of the rounds' (each round runs as long). */
const requestsPerSecond = (windows: Window[]) => sum(windows.map((w) => w.requestsPerSecond)) / windows.length;

/**
 * CPU milliseconds per request: CPU time over requests sent, all in the windows of the given rounds. A
 * window ends once the requests cut short at its end are done, so each request sent is paid in full.
 * Database: null when not measured. Total: server and database (embedded: the server's, which holds it).
 */
function cpuPerRequest(windows: Window[]) {
  const requests = sum(windows.map((w) => w.sent));
  const server = sum(windows.map((w) => w.cpu.server)) / requests;
  const database = windows.every((w) => w.cpu.database !== null) ? sum(windows.map((w) => w.cpu.database!)) / requests : null;
  return { server, database, total: server + (database ?? 0) };
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

const ms = (value: number | null) => (value === null ? 'n/a' : value.toFixed(2));

export function targetsTable(measured: Measured[]): string {
  return table(
    ['target', 'req/s', 'p50 ms', 'p99 ms', 'SQL/req', 'server CPU ms/req', 'DB CPU ms/req', 'total CPU ms/req', 'KB'],
    measured.map(({ target, windows, statements, bytes }) => {
      const cpu = cpuPerRequest(windows);
      return [
        `${target.key}. ${target.name}`,
        requestsPerSecond(windows).toFixed(1),
        String(median(windows.map((w) => w.p50))),
        String(median(windows.map((w) => w.p99))),
        statements === undefined ? 'n/a' : String(statements),
        ms(cpu.server),
        ms(cpu.database),
        ms(cpu.total),
        (bytes / 1024).toFixed(1),
      ];
    }),
  );
}

type Ratio = { name: string; of: Window[][]; to: Window[][]; measure: (windows: Window[]) => number; goal: { atLeast?: number; atMost?: number } };

/**
 * The ratios, each over the whole run and per round (min–max: one round's windows of both
 * targets, which ran back to back), with its goal and whether the whole run's value meets it.
 */
export function ratiosTable(byKey: Map<Target['key'], Measured>, databaseMeasured: boolean): string {
  const windows = (key: Target['key']) => byKey.get(key)!.windows.map((window) => [window]);
  const ratios: Ratio[] = [
    { name: 'structural tree (ours, c) / PostGraphile (d), req/s', of: windows('c'), to: windows('d'), measure: requestsPerSecond, goal: { atLeast: 1.5 } },
    { name: 'full tree (b) / json_agg (a), req/s', of: windows('b'), to: windows('a'), measure: requestsPerSecond, goal: { atLeast: 0.9 } },
    {
      name: 'REST listSiteSections (e) / same GraphQL document (f), req/s',
      of: windows('e'),
      to: windows('f'),
      measure: requestsPerSecond,
      goal: { atLeast: 0.95 },
    },
    {
      name: `CPU per full-tree request (${databaseMeasured ? 'server + DB' : 'server only, DB n/a'}) (b) / json_agg (a)`,
      of: windows('b'),
      to: windows('a'),
      measure: (w) => cpuPerRequest(w).total,
      goal: { atMost: 1.1 },
    },
    { name: 'deep document (ours, g) / PostGraphile (h), req/s', of: windows('g'), to: windows('h'), measure: requestsPerSecond, goal: { atLeast: 1.5 } },
    // What the ETag costs a full tree (GET i against POST b, which computes none), and what a 304 saves.
    { name: 'full tree GET with ETag (i) / POST (b), req/s', of: windows('i'), to: windows('b'), measure: requestsPerSecond, goal: { atLeast: 0.95 } },
    { name: 'full tree GET 304 (j) / GET with ETag (i), req/s', of: windows('j'), to: windows('i'), measure: requestsPerSecond, goal: { atLeast: 1 } },
  ];
  return table(
    ['ratio', 'whole run', 'rounds min–max', 'goal', 'met'],
    ratios.map(({ name, of, to, measure, goal }) => {
      const whole = measure(of.flat()) / measure(to.flat());
      const perRound = of.map((round, i) => measure(round) / measure(to[i]));
      const met = goal.atLeast !== undefined ? whole >= goal.atLeast : whole <= goal.atMost!;
      return [
        name,
        whole.toFixed(2),
        `${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)}`,
        goal.atLeast !== undefined ? `≥ ${goal.atLeast}` : `≤ ${goal.atMost}`,
        met ? 'met' : 'not met',
      ];
    }),
  );
}
