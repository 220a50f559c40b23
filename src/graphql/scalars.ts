import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

export const DateTime = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  serialize: (value) => (value instanceof Date ? value : new Date(value as string)).toISOString(),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : undefined;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError('must be an ISO 8601 date-time');
    return date;
  },
  parseLiteral: (ast) => {
    const date = ast.kind === Kind.STRING ? new Date(ast.value) : undefined;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError('must be an ISO 8601 date-time');
    return date;
  },
});

function literalValue(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => literalValue(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalValue(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
    default:
      return undefined;
  }
}

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literalValue(ast, variables),
});

/**
 * A batch of insights events as JSON text: a string from a GraphQL client, or the bytes of a REST
 * request body as the facade hands them over in-process. Kept as bytes: parsing happens elsewhere. A
 * literal stays a string: graphql-jit writes literal arguments into its compiled code as JSON, which
 * would turn bytes into `{"type": "Buffer", ...}` (the resolver makes bytes of it).
 */
export const InsightsEventBatch = new GraphQLScalarType<Uint8Array | string, never>({
  name: 'InsightsEventBatch',
  serialize: () => {
    throw new TypeError('InsightsEventBatch is an input type');
  },
  parseValue: (value) => {
    if (value instanceof Uint8Array) return value;
    if (typeof value === 'string') return Buffer.from(value);
    throw new TypeError('must be the JSON text of {"events": [...]}');
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new TypeError('must be the JSON text of {"events": [...]}');
    return ast.value;
  },
});

export const scalarResolvers = { DateTime, JSON: JSONScalar, InsightsEventBatch };
