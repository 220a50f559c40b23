import { getNullableType, isEnumType, isInputObjectType, isListType, isScalarType, type GraphQLInputType } from 'graphql';

const PREFIX = /^Variable "\$(\w+)" got invalid value /;

/** graphql-js's message for a variable value that does not fit its type, in parts. */
export type VariableError = { variable: string; path: string | null; detail: string };

/**
 * Splits graphql-js's variable-coercion message (`Variable "$input" got invalid value <value> at
 * "input.title"; <detail>`). That message echoes the value given, which may hold secrets (an
 * integration's) or be large, so both doors rebuild their messages from the parts without it. The
 * detail is taken after the last "; " that starts a sentence (else after the last "; "), as the echoed
 * value comes before it.
 */
export function parseVariableError(message: string): VariableError | null {
  const prefix = PREFIX.exec(message);
  if (!prefix) return null;
  const rest = message.slice(prefix[0].length);
  // A scalar of this server may word its detail in lower case (`must be an ISO 8601 date-time`).
  const split = [...rest.matchAll(/; (?=[A-Z])/g)].pop() ?? [...rest.matchAll(/; /g)].pop();
  if (split?.index === undefined) return null;
  const at = / at "([^"]+)"$/.exec(rest.slice(0, split.index));
  return { variable: prefix[1], path: at?.[1] ?? null, detail: rest.slice(split.index + 2) };
}

/** The message without the echoed value: `Variable "$input" at "input.title": <detail>`. */
export function variableErrorMessage(message: string): string {
  const parts = parseVariableError(message);
  if (!parts) return message;
  return `Variable "$${parts.variable}"${parts.path ? ` at "${parts.path}"` : ''}: ${parts.detail}`;
}

/** The input type found at a path of graphql-js's messages (`input.languages[0]`) from its variable's type, or null. */
export function inputTypeAt(type: GraphQLInputType, path: string): GraphQLInputType | null {
  let current: GraphQLInputType = type;
  // The path starts with the variable's name, which `type` already is.
  for (const [, field, index] of path.matchAll(/\.(\w+)|\[(\d+)\]/g)) {
    const nullable = getNullableType(current);
    if (index !== undefined && isListType(nullable)) current = nullable.ofType;
    else if (field !== undefined && isInputObjectType(nullable) && nullable.getFields()[field]) current = nullable.getFields()[field].type;
    else return null;
  }
  return current;
}

/** Enums with more values than this are not spelt out in a message (a language code, ...). */
const MAX_LISTED_VALUES = 60;

/** What a value of `type` is, in the plain words REST messages use (`a string`, `one of: a, b`). */
export function plainType(type: GraphQLInputType): string {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return 'an array';
  if (isInputObjectType(nullable)) return 'an object';
  if (isEnumType(nullable)) {
    const names = nullable.getValues().map((value) => value.name);
    return names.length <= MAX_LISTED_VALUES ? `one of: ${names.join(', ')}` : `one of the ${names.length} values of ${nullable.name} (see the API reference)`;
  }
  switch (nullable.name) {
    case 'String':
    case 'ID':
      return 'a string';
    case 'Int':
      return 'an integer';
    case 'Float':
      return 'a number';
    case 'Boolean':
      return 'a boolean (true or false)';
    default:
      return `a value of type ${nullable.name}`;
  }
}

/** Built-in scalars and enums, whose graphql-js messages REST rewords; other scalars word their own. */
export const hasPlainWording = (type: GraphQLInputType) => {
  const nullable = getNullableType(type);
  return !isScalarType(nullable) || ['String', 'ID', 'Int', 'Float', 'Boolean'].includes(nullable.name);
};
