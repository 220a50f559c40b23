import { AssertionError, deepStrictEqual } from 'node:assert';
import type { Target } from './targets.js';
import { comparableDeep } from './deep-tree.js';
import { comparableStructure } from './structural-tree.js';

/** A target's answer: its JSON and its size in bytes. */
export type Answer = { json: unknown; bytes: number };

async function answerOf(target: Target, etags: Map<string, string>): Promise<Answer> {
  const { url, method, body, expectStatus } = target.request;
  const headers = { ...target.request.headers };
  // A conditional GET names the ETag its URL answered last (the unconditional target runs before it).
  if (expectStatus === 304) headers['if-none-match'] = etags.get(url) ?? '';
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  if (expectStatus) {
    if (response.status !== expectStatus)
      throw new Error(`${target.key} (${target.name}): ${response.status}, not ${expectStatus} (sent If-None-Match: ${headers['if-none-match']})`);
    return { json: null, bytes: Buffer.byteLength(text) };
  }
  const etag = response.headers.get('etag');
  if (etag) etags.set(url, etag);
  if (!response.ok) throw new Error(`${target.key} (${target.name}): ${response.status} ${text.slice(0, 500)}`);
  const json = JSON.parse(text) as { errors?: unknown };
  if (json.errors) throw new Error(`${target.key} (${target.name}): ${JSON.stringify(json.errors).slice(0, 500)}`);
  return { json, bytes: Buffer.byteLength(text) };
}

/** Leaves out null fields everywhere, as REST does for all but @keepNull fields. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, child]) => child !== null)
      .map(([key, child]) => [key, withoutNulls(child)]),
  );
}

const dataOf = (answer: Answer, field: string) => (answer.json as { data?: Record<string, unknown> }).data?.[field];

function sameAnswer(what: string, actual: unknown, expected: unknown) {
  if (actual === undefined || actual === null) throw new Error(`${what}: no answer`);
  try {
    deepStrictEqual(actual, expected);
  } catch (error) {
    if (!(error instanceof AssertionError)) throw error;
    throw new Error(`${what}: the answers differ, so their ratio would mean nothing\n${error.message.slice(0, 3000)}`);
  }
}

/**
 * Fetches every target once and stops the run unless the pairs that the ratios compare answer
 * the same: a (json_agg) = b (full tree); c (structural) = d (PostGraphile), normalised; e (REST) = f
 * (its GraphQL document) once nulls are left out; g (deep document) = h (PostGraphile), normalised
 * (deep-tree.ts). Returns each target's answer (its size is printed).
 */
export async function checkAnswers(targets: Target[]): Promise<Map<Target['key'], Answer>> {
  const answers = new Map<Target['key'], Answer>();
  const etags = new Map<string, string>();
  for (const target of targets) answers.set(target.key, await answerOf(target, etags));
  const answer = (key: Target['key']) => answers.get(key)!;
  sameAnswer('a vs b (json_agg baseline vs GraphQL full tree)', answer('a').json, dataOf(answer('b'), 'site'));
  sameAnswer('c vs d (structural tree vs PostGraphile)', comparableStructure(answer('c').json as never), comparableStructure(answer('d').json as never));
  sameAnswer('e vs f (REST listSiteSections vs its GraphQL document)', withoutNulls(answer('e').json), withoutNulls(dataOf(answer('f'), 'siteSections')));
  sameAnswer('i vs b (full tree over GET vs POST)', dataOf(answer('i'), 'site'), dataOf(answer('b'), 'site'));
  sameAnswer('g vs h (deep document vs PostGraphile)', comparableDeep(answer('g').json as never), comparableDeep(answer('h').json as never));
  // The 304 target sends the ETag that i answered (it is the same URL).
  const conditional = targets.find((target) => target.request.expectStatus === 304);
  if (conditional) conditional.request.headers = { ...conditional.request.headers, 'if-none-match': etags.get(conditional.request.url) ?? '' };
  return answers;
}
