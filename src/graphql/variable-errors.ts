const PREFIX = /^Variable "\$(\w+)" got invalid value /;

/** graphql-js's message for a variable value that does not fit its type, in parts. */
export type VariableError = { variable: string; path: string | null; detail: string };

/**
 * Splits graphql-js's variable-coercion message (`Variable "$input" got invalid value <value> at
 * "input.title"; <detail>`). That message echoes the value given, which may hold secrets (an
 * integration's) or be large, so both doors rebuild their messages from the parts without it. The
 * detail is taken after the last "; " that starts a sentence, as the echoed value comes before it.
 */
export function parseVariableError(message: string): VariableError | null {
  const prefix = PREFIX.exec(message);
  if (!prefix) return null;
  const rest = message.slice(prefix[0].length);
  const split = [...rest.matchAll(/; (?=[A-Z])/g)].pop();
  if (split?.index === undefined) return null;
  const at = / at "([^"]+)"$/.exec(rest.slice(0, split.index));
  return { variable: prefix[1]!, path: at?.[1] ?? null, detail: rest.slice(split.index + 2) };
}

/** The message without the echoed value: `Variable "$input" at "input.title": <detail>`. */
export function variableErrorMessage(message: string): string {
  const parts = parseVariableError(message);
  if (!parts) return message;
  return `Variable "$${parts.variable}"${parts.path ? ` at "${parts.path}"` : ''}: ${parts.detail}`;
}
