/**
 * A CPU profile's top entries by self time, and self time by where the code comes from (a package of
 * node_modules, this project's sources, Node's internals, the garbage collector), as printed by
 * `npm run profile:tree` so that profiles before and after a change compare in text.
 */
type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number };
type CpuProfile = { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] };

function origin(url: string, functionName: string) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inModules = url.lastIndexOf('node_modules/');
  if (inModules >= 0) {
    const rest = url.slice(inModules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node';
  const source = url.match(/\/(src|rest-facade|scripts)\/(.*)$/);
  return source
    ? `${source[1]}/${source[2]
        .split('/')
        .slice(0, source[1] === 'src' ? 2 : 1)
        .join('/')}`
    : url;
}

export function printTopEntries(profile: CpuProfile, top: number) {
  const selfMs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time is the delta that follows it (the next sample's timeDelta).
  for (let i = 0; i < samples.length; i++) selfMs.set(samples[i], (selfMs.get(samples[i]) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
  const total = [...selfMs.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0;
    if (ms === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^.*\/(node_modules|src|rest-facade|scripts)\//, '$1/');
    const key = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    const from = origin(url, functionName);
    byOrigin.set(from, (byOrigin.get(from) ?? 0) + ms);
  }
  const print = (title: string, entries: Map<string, number>, count: number) => {
    console.log(`\n${title} (self time, % of ${total.toFixed(0)} ms sampled)`);
    for (const [key, ms] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`);
  };
  print('top functions', byFunction, top);
  print('by origin', byOrigin, 15);
}
