/**
 * `npm run bench:scale`: how each list's cost grows with the rows of its parent, on the configured
 * database (DATABASE_URL, a fresh database; or a fresh embedded one in a temporary DATA_DIR).
 *
 * For each size of BENCH_SIZES (default 1000,10000,100000) it seeds, each in an organization of its own,
 * that many spaces, collections, change requests of a space, comments of a change request, site sections
 * (each with a site space), site spaces of a site and members (a few rows made through the API, then
 * copied in SQL: scale-seed.ts). Then it measures through the REST door of the server it started, as
 * medians of BENCH_SAMPLES sequential requests (default 20; fewer once a measurement has taken
 * BENCH_MAX_SECONDS, default 30, with at least 3): the first page (limit=100), a deep page (the page
 * after `next` was followed to BENCH_DEEP_ROWS rows in, default 5000, or half the list), and
 * limit=1000; the ratios of each size to the smallest; the site tree (GraphQL) of a 10-section site
 * before and after the other organizations' rows were seeded; the members page (limit=100) at 1,000
 * members × 2,000 spaces against 100 × 100; and the process's resident memory (idle after seeding, and
 * its peak while measuring: the server runs in this process). It prints the tables and each goal of
 * issue 22, met or not.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { systemClock } from '../src/kernel/clock.js';
import { addMember, createOrganization } from '../src/domain/organizations/index.js';
import { createApiToken, createUser } from '../src/domain/users/index.js';
import { newId } from '../src/kernel/ids.js';
import { startBenchServer } from './bench-server.js';
import { Seeder } from './scale-seed.js';
import { seedSiteTree, SITE_TREE_QUERY } from './site-tree.js';

const sizes = (process.env.BENCH_SIZES ?? '1000,10000,100000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const samples = Number(process.env.BENCH_SAMPLES ?? 20);
const budgetMs = Number(process.env.BENCH_MAX_SECONDS ?? 30) * 1000;
const deepRows = Number(process.env.BENCH_DEEP_ROWS ?? 5000);
const timeoutMs = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 180) * 1000;
if (sizes.some((size) => !Number.isInteger(size) || size < 2)) throw new Error('BENCH_SIZES: comma-separated integers of 2 or more');

const MB = 1024 * 1024;
const started = performance.now();
const { server, config, embeddedDir } = await startBenchServer('bench-scale');
// Slow answers of large lists must not meet an idle-connection timeout on the way.
server.server.keepAliveTimeout = timeoutMs;
const em = () => server.deps.orm.em.fork();
const seeder = new Seeder(em);
const owner = await createUser(em(), systemClock, { email: `bench-${newId().toLowerCase()}@example.com`, displayName: 'Bench' });
const { secret } = await createApiToken(em(), systemClock, owner.id, 'bench');
const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
const log = (line: string) => console.error(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

// ─── requests ───────────────────────────────────────────────────────────────────────────────────────

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  const answer = text ? JSON.parse(text) : undefined;
  if (answer?.errors) throw new Error(`${method} ${path}: ${JSON.stringify(answer.errors).slice(0, 300)}`);
  return answer;
}

/** A median in ms over up to `samples` requests (after `warmUp` more); NaN if a request timed out. */
type Measured = { ms: number; n: number };

async function measure(send: () => Promise<unknown>, warmUp = 2): Promise<Measured> {
  const times: number[] = [];
  try {
    // A slow request needs no second warm-up: what it would warm is not what it costs.
    for (let i = 0, at = performance.now(); i < warmUp && performance.now() - at < 1000; i++) await send();
    const begun = performance.now();
    while (times.length < samples && (times.length < 3 || performance.now() - begun < budgetMs)) {
      const at = performance.now();
      await send();
      times.push(performance.now() - at);
    }
  } catch (error) {
    if ((error as Error).name !== 'TimeoutError') throw error;
    return { ms: Number.NaN, n: times.length };
  }
  times.sort((a, b) => a - b);
  const middle = Math.floor(times.length / 2);
  return { ms: times.length % 2 ? times[middle] : (times[middle - 1] + times[middle]) / 2, n: times.length };
}

const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

/** The `page` after following `next` about `deepRows` rows in (or half the list), with how many rows that is. */
async function deepCursor(path: string, size: number): Promise<{ page: string; rows: number } | undefined> {
  const target = Math.min(deepRows, Math.floor(size / 2));
  const hop = Math.min(1000, target);
  let page: string | undefined;
  let rows = 0;
  while (rows < target) {
    const body = await call('GET', withQuery(path, `limit=${hop}${page ? `&page=${encodeURIComponent(page)}` : ''}`));
    rows += body.items.length;
    if (!body.next) return undefined;
    page = body.next.page as string;
  }
  return page ? { page, rows } : undefined;
}

// ─── seeding ────────────────────────────────────────────────────────────────────────────────────────

const organization = async (title: string) => (await createOrganization(em(), systemClock, owner.id, { title })).id;

/** A list of the issue's table: how to seed it at a size, and the REST path that lists it. */
type ListKind = { name: string; seed(size: number): Promise<string> };

const LISTS: ListKind[] = [
  {
    name: 'spaces of an organization',
    async seed(size) {
      const org = await organization(`Spaces ${size}`);
      const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Space' });
      await seeder.copySpaces(space.id, size - 1);
      return `/v1/orgs/${org}/spaces`;
    },
  },
  {
    name: 'collections',
    async seed(size) {
      const org = await organization(`Collections ${size}`);
      const collection = await call('POST', `/v1/orgs/${org}/collections`, { title: 'Collection' });
      await seeder.copyCollections(collection.id, size - 1);
      return `/v1/orgs/${org}/collections`;
    },
  },
  {
    name: 'change requests of a space',
    async seed(size) {
      const org = await organization(`Change requests ${size}`);
      const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Space' });
      const changeRequest = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Change' });
      await seeder.copyChangeRequests(changeRequest.id, size - 1);
      return `/v1/spaces/${space.id}/change-requests`;
    },
  },
  {
    name: 'comments of a change request',
    async seed(size) {
      const org = await organization(`Comments ${size}`);
      const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Space' });
      const changeRequest = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Change' });
      const path = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/comments`;
      const comment = await call('POST', path, { body: { markdown: 'A comment' } });
      await seeder.copyComments(comment.id, size - 1);
      return path;
    },
  },
  {
    name: 'site sections',
    async seed(size) {
      const org = await organization(`Site sections ${size}`);
      const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Space' });
      const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Site' });
      const section = await call('POST', `/v1/orgs/${org}/sites/${site.id}/sections`, { spaceId: space.id, title: 'Section' });
      await seeder.copySiteSections(section.id, size - 1);
      return `/v1/orgs/${org}/sites/${site.id}/sections`;
    },
  },
  {
    name: 'site spaces',
    async seed(size) {
      const org = await organization(`Site spaces ${size}`);
      const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Space' });
      const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Site', spaces: [space.id] });
      const [siteSpace] = (await call('GET', `/v1/orgs/${org}/sites/${site.id}/site-spaces`)).items;
      await seeder.copySiteSpaces(siteSpace.id, size - 1);
      return `/v1/orgs/${org}/sites/${site.id}/site-spaces`;
    },
  },
  {
    name: 'members',
    async seed(size) {
      return seedMembers(`Members ${size}`, size, 10);
    },
  },
];

/** An organization of `members` members (the owner and read members) and `spaces` spaces. */
async function seedMembers(title: string, members: number, spaces: number): Promise<string> {
  const org = await organization(title);
  const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Space' });
  if (spaces > 1) await seeder.copySpaces(space.id, spaces - 1);
  const member = await createUser(em(), systemClock, { email: `member-${newId().toLowerCase()}@example.com`, displayName: 'Member' });
  await addMember(em(), systemClock, org, member.id, 'read');
  if (members > 2) await seeder.copyMembers(org, member.id, members - 2);
  return `/v1/orgs/${org}/members`;
}

// ─── memory ─────────────────────────────────────────────────────────────────────────────────────────

/** Peak resident memory: the kernel's high-water mark once reset (exact), else samples of rss. */
let sampledPeak = 0;
const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss)), 25);
sampler.unref();
function resetPeak(): boolean {
  sampledPeak = process.memoryUsage().rss;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}
/** Resident memory now and the peak since measuring began, for the progress lines. */
const memoryNow = () => `rss ${Math.round(process.memoryUsage().rss / MB)} MB, peak ${Math.round(Math.max(sampledPeak, highWaterMark()) / MB)} MB`;
const highWaterMark = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

// ─── the run ────────────────────────────────────────────────────────────────────────────────────────

const database = config.databaseUrl ? 'PostgreSQL server' : 'embedded (PGlite)';
log(`${database}; sizes ${sizes.join(', ')}`);
const gql = (query: string, variables: Record<string, unknown>) => call('POST', '/graphql', { query, variables });

const siteOrganization = await organization('Site tree');
const treeSite = await seedSiteTree(em(), siteOrganization, 10, 10, 2);
const siteTree = () => gql(SITE_TREE_QUERY, { id: treeSite });
log('site tree of 10 sections × 10 site spaces seeded; measuring it alone');
// The first requests of the process compile what every later one reuses: not a cost of the tree.
const treeAlone = await measure(siteTree, 10);

const paths = new Map<string, Map<number, string>>();
for (const list of LISTS) {
  const bySize = new Map<number, string>();
  for (const size of sizes) {
    bySize.set(size, await list.seed(size));
    log(`seeded ${list.name}: ${size}`);
  }
  paths.set(list.name, bySize);
}
const membersSmall = await seedMembers('Members 100 × 100', 100, 100);
const membersLarge = await seedMembers('Members 1,000 × 2,000', 1000, 2000);
log('seeded the members of 100 × 100 and 1,000 × 2,000; vacuum and analyze');
await seeder.sql('vacuum analyze');

const [others] = await seeder.sql<{ spaces: number; changeRequests: number; comments: number }>(
  `select (select count(*) from "space" where "organization_id" <> ?)::int as "spaces",
          (select count(*) from "change_request" where "organization_id" <> ?)::int as "changeRequests",
          (select count(*) from "comment" where "organization_id" <> ?)::int as "comments"`,
  [siteOrganization, siteOrganization, siteOrganization],
);

(globalThis as { gc?: () => void }).gc?.();
await new Promise((resolve) => setTimeout(resolve, 1000));
const idleRss = process.memoryUsage().rss;
const exactPeak = resetPeak();

type Row = { list: string; size: number; first: Measured; deep?: Measured & { rows: number }; thousand: Measured; count: number };
const rows: Row[] = [];
for (const list of LISTS) {
  for (const size of sizes) {
    const path = paths.get(list.name)!.get(size)!;
    const firstPage = await call('GET', withQuery(path, 'limit=100'));
    const first = await measure(() => call('GET', withQuery(path, 'limit=100')));
    const cursor = await deepCursor(path, size);
    const deep = cursor
      ? { ...(await measure(() => call('GET', withQuery(path, `limit=100&page=${encodeURIComponent(cursor.page)}`)))), rows: cursor.rows }
      : undefined;
    const thousand = await measure(() => call('GET', withQuery(path, 'limit=1000')));
    rows.push({ list: list.name, size, first, deep, thousand, count: firstPage.count });
    log(`${list.name} at ${size}: first ${format(first)}, deep ${deep ? format(deep) : '-'}, limit=1000 ${format(thousand)}; ${memoryNow()}`);
  }
}
log("site tree with the other organizations' rows");
const treeWithOthers = await measure(siteTree, 10);
log('members pages');
const small = await measure(() => call('GET', withQuery(membersSmall, 'limit=100')));
const large = await measure(() => call('GET', withQuery(membersLarge, 'limit=100')));
const peakRss = Math.max(sampledPeak, exactPeak ? highWaterMark() : 0);
clearInterval(sampler);

// ─── report ─────────────────────────────────────────────────────────────────────────────────────────

function format(measured: Measured | undefined): string {
  if (!measured) return '-';
  if (Number.isNaN(measured.ms)) return `timeout (${timeoutMs / 1000} s)`;
  const value = measured.ms >= 1000 ? `${(measured.ms / 1000).toFixed(2)} s` : `${measured.ms.toFixed(1)} ms`;
  return measured.n < samples ? `${value} (n=${measured.n})` : value;
}
const ratio = (a: Measured | undefined, b: Measured | undefined) => (a && b && b.ms > 0 ? a.ms / b.ms : Number.NaN);
const times = (value: number) => (Number.isNaN(value) ? '-' : `${value.toFixed(2)}×`);
const table = (head: string[], body: string[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((cells) => `| ${cells.join(' | ')} |`)].join('\n');
const smallest = sizes[0];
const largest = sizes[sizes.length - 1];
const find = (list: string, size: number) => rows.find((row) => row.list === list && row.size === size)!;

const out: string[] = [];
out.push(`## bench:scale — ${database}, ${new Date().toISOString().slice(0, 16)}Z`);
out.push(
  `Medians of ${samples} sequential requests (n shown when fewer: a measurement stops after ${budgetMs / 1000} s, with 3 at least). First page: limit=100; deep page: limit=100 after following \`next\` to the row shown.`,
);
out.push('');
out.push(
  table(
    ['list', 'rows', 'count', 'first page', 'deep page', 'limit=1000'],
    rows.map((row) => [
      row.list,
      row.size.toLocaleString('en'),
      row.count === row.size ? String(row.count) : `**${row.count}**`,
      format(row.first),
      row.deep ? `${format(row.deep)} (row ${row.deep.rows.toLocaleString('en')})` : '-',
      format(row.thousand),
    ]),
  ),
);
out.push('');
const larger = sizes.slice(1);
out.push(
  table(
    [
      'list',
      ...larger.flatMap((size) => [
        `first ${size / 1000}k/${smallest / 1000}k`,
        `deep ${size / 1000}k/${smallest / 1000}k`,
        `limit=1000 ${size / 1000}k/${smallest / 1000}k`,
      ]),
    ],
    LISTS.map((list) => [
      list.name,
      ...larger.flatMap((size) => {
        const [big, base] = [find(list.name, size), find(list.name, smallest)];
        return [times(ratio(big.first, base.first)), times(ratio(big.deep, base.deep)), times(ratio(big.thousand, base.thousand))];
      }),
    ]),
  ),
);
out.push('');
const othersText = `${others.spaces.toLocaleString('en')} spaces, ${others.changeRequests.toLocaleString('en')} change requests, ${others.comments.toLocaleString('en')} comments`;
out.push(
  table(
    ['measurement', 'median', 'against', 'ratio'],
    [
      ['site tree (GraphQL), 10 sections × 10 site spaces, other organizations empty', format(treeAlone), '', ''],
      [`site tree with other organizations holding ${othersText}`, format(treeWithOthers), 'alone', times(ratio(treeWithOthers, treeAlone))],
      ['members page (limit=100), 100 members × 100 spaces', format(small), '', ''],
      ['members page (limit=100), 1,000 members × 2,000 spaces', format(large), '100 × 100', times(ratio(large, small))],
      ['resident memory: idle after seeding', `${(idleRss / MB).toFixed(0)} MB`, '', ''],
      [
        `resident memory: peak while measuring (${exactPeak ? 'VmHWM' : 'sampled'})`,
        `${(peakRss / MB).toFixed(0)} MB`,
        'idle',
        `+${((peakRss - idleRss) / MB).toFixed(0)} MB`,
      ],
    ],
  ),
);
out.push('');
const goal = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? 'met' : '**not met**');
const firstRatios = LISTS.map((list) => ({ list: list.name, value: ratio(find(list.name, largest).first, find(list.name, smallest).first) }));
// A list that timed out is the worst.
const worst = firstRatios.find((r) => Number.isNaN(r.value)) ?? firstRatios.reduce((a, b) => (b.value > a.value ? b : a));
const sizedGoal = largest === 100_000 && smallest === 1000 ? '100k/1k' : `${largest}/${smallest} (sizes differ from the goal's)`;
out.push(
  table(
    ['goal of issue 22', 'measured', 'met'],
    [
      [
        `first page ${sizedGoal} ≤ 1.5× for every list`,
        `worst: ${worst.list} ${times(worst.value)}`,
        goal(sizes.length > 1 ? firstRatios.every((r) => r.value <= 1.5) : undefined),
      ],
      ["site tree with other tenants' rows ≤ 1.2× without", times(ratio(treeWithOthers, treeAlone)), goal(ratio(treeWithOthers, treeAlone) <= 1.2)],
      ['members page at 1,000 × 2,000 within 1.5× of 100 × 100', times(ratio(large, small)), goal(ratio(large, small) <= 1.5)],
      ['RSS during the run ≤ idle + 200 MB', `+${((peakRss - idleRss) / MB).toFixed(0)} MB`, goal(peakRss - idleRss <= 200 * MB)],
    ],
  ),
);
console.log(out.join('\n'));
log('done');

await server.stop();
// BENCH_KEEP_DATA_DIR=1 keeps the embedded database for a look at its plans afterwards.
if (embeddedDir && !process.env.BENCH_KEEP_DATA_DIR) rmSync(embeddedDir, { recursive: true, force: true });
else if (embeddedDir) log(`kept the embedded database in ${embeddedDir}`);
