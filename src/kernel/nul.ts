/** What a string holding U+0000 is told: PostgreSQL's text cannot hold that character. */
export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/** What a string holding half of a surrogate pair is told: it is not Unicode, and PostgreSQL refuses it. */
export const LONE_SURROGATE_MESSAGE = 'must not contain a lone surrogate (U+D800 to U+DFFF without its pair): send well-formed Unicode';

/**
 * How deep a JSON value a caller sends may nest (objects and arrays). Far more than any input of the
 * API needs (an adaptive schema, integration settings, a page's document), and far less than what would
 * exhaust the stack of whatever walks it next.
 */
export const MAX_JSON_DEPTH = 64;
export const DEPTH_MESSAGE = `must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`;

/** Why a string cannot be stored as PostgreSQL text or JSON, or null when it can. */
export function unstorable(value: string): string | null {
  if (value.includes('\u0000')) return NUL_MESSAGE;
  if (!value.isWellFormed()) return LONE_SURROGATE_MESSAGE;
  return null;
}

/** A field's path as a message names it; a part that is itself odd is shown escaped, as JSON would write it. */
export const fieldName = (path: readonly (string | number)[]) =>
  path.map((part) => (typeof part === 'string' && unstorable(part) ? JSON.stringify(part) : part)).join('.');

/** The 400 message for a problem found by `inputProblemAt`. */
export const problemMessage = (problem: InputProblem) => (problem.path.length ? `${fieldName(problem.path)}: ${problem.message}` : `body: ${problem.message}`);

export type InputProblem = { path: (string | number)[]; message: string };

/**
 * The first thing in a value a caller sent (a body, variables, parameters) that must not go further, or
 * null: a string or object key holding U+0000 or a lone surrogate (every string a caller sends reaches
 * PostgreSQL somewhere), or objects and arrays nested deeper than MAX_JSON_DEPTH. This is the one
 * check of both doors, made in one walk: its depth bound keeps the walk itself, and everything after
 * it, within the stack.
 */
export function inputProblemAt(value: unknown, path: (string | number)[] = []): InputProblem | null {
  return walk(value, path, 0);
}

function walk(value: unknown, path: (string | number)[], depth: number): InputProblem | null {
  if (typeof value === 'string') {
    const message = unstorable(value);
    return message ? { path: [...path], message } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  // Named by where the value starts: the field the caller gave, not sixty-four levels of keys.
  if (depth >= MAX_JSON_DEPTH) return { path: path.slice(0, 1), message: DEPTH_MESSAGE };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      const found = walk(value[i], path, depth + 1);
      path.pop();
      if (found) return found;
    }
    return null;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const message = unstorable(key);
    if (message) return { path: [...path, key], message };
    path.push(key);
    const found = walk((value as Record<string, unknown>)[key], path, depth + 1);
    path.pop();
    if (found) return found;
  }
  return null;
}

/*
 * A JSON text can carry U+0000 and lone surrogates only as escapes (`\u0000`, `\ud800`): bytes that are
 * valid UTF-8 never decode to either. Text without such an escape needs no walk for them.
 */
const ODD_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;
export const mayHoldUnstorable = (jsonText: string) => ODD_ESCAPE.test(jsonText);

/**
 * Whether a JSON text nests objects and arrays deeper than MAX_JSON_DEPTH, read from its characters
 * (brackets inside strings do not count): for a body parsed where no walk follows (a batch of insights
 * events), at about a quarter of the cost of parsing it.
 */
export function nestsTooDeep(jsonText: string): boolean {
  let depth = 0;
  for (let i = 0; i < jsonText.length; i++) {
    const c = jsonText.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < jsonText.length; i++) {
        const s = jsonText.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** A string made storable for a record the server keeps of what it was sent (U+0000 and lone surrogates become U+FFFD). */
export const storable = (value: string) => value.replaceAll('\u0000', '\uFFFD').toWellFormed();
