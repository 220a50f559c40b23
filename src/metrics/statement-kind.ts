export type StatementKind = 'select' | 'insert' | 'update' | 'delete' | 'other';

const KINDS = new Set<string>(['select', 'insert', 'update', 'delete']);
const WORD = /[a-z]+/y;

/**
 * What a statement does, from its text: its first keyword, or for `with …` the keyword of the main
 * statement after the common table expressions (a `with` that only reads is a select). Anything
 * else (BEGIN, COMMIT, COPY, DDL, SET, VACUUM) is `other`. Never the text itself: it is a label.
 */
export function statementKind(sql: string): StatementKind {
  const text = sql.toLowerCase();
  let at = skipBlanks(text, 0);
  const first = wordAt(text, at);
  if (first !== 'with') return KINDS.has(first) ? (first as StatementKind) : first === 'values' || first === 'table' ? 'select' : 'other';
  // After `with`: names, column lists and parenthesized bodies, separated by commas, up to the main statement.
  let depth = 0;
  for (at += first.length; at < text.length; at++) {
    const char = text[at];
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === "'" || char === '"') at = closingQuote(text, at);
    else if (depth === 0 && char >= 'a' && char <= 'z') {
      const word = wordAt(text, at);
      if (KINDS.has(word)) return word as StatementKind;
      at += word.length - 1;
    }
  }
  return 'other';
}

/** Where the quoted string or identifier opened at `at` ends (the end of the text if it does not). */
function closingQuote(text: string, at: number): number {
  const end = text.indexOf(text[at], at + 1);
  return end === -1 ? text.length : end;
}

function wordAt(text: string, at: number): string {
  WORD.lastIndex = at;
  return WORD.exec(text)?.[0] ?? '';
}

/** The position after blanks and SQL comments. */
function skipBlanks(text: string, at: number): number {
  while (at < text.length) {
    if (/\s/.test(text[at])) at++;
    else if (text.startsWith('--', at)) at = text.indexOf('\n', at) === -1 ? text.length : text.indexOf('\n', at);
    else if (text.startsWith('/*', at)) at = text.indexOf('*/', at) === -1 ? text.length : text.indexOf('*/', at) + 2;
    else break;
  }
  return at;
}
