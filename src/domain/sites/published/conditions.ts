import jsep, { type Expression } from 'jsep';
import { badRequest } from '../../../kernel/errors.js';

/**
 * Conditions of sections and site spaces are JavaScript-like boolean expressions over the visitor's
 * attributes, such as `visitor.claims.unsigned.beta && visitor.claims.plan === "pro"`. They may use
 * literals, `!`, `-`, comparisons, `&&`, `||`, `?:`, array literals and the methods below, and read
 * only `visitor.claims.…` paths that the site's adaptive schema defines.
 */
const BINARY = new Set(['==', '===', '!=', '!==', '<', '<=', '>', '>=', '&&', '||', 'in', '+']);
const UNARY = new Set(['!', '-']);
const METHODS = new Set(['includes', 'startsWith', 'endsWith']);

type JsonSchema = { type?: unknown; properties?: Record<string, JsonSchema> };

/** `visitor.claims.a.b` → ['visitor', 'claims', 'a', 'b'], or null when the expression is not a plain path. */
function pathOf(node: Expression): string[] | null {
  if (node.type === 'Identifier') return [node.name as string];
  if (node.type === 'MemberExpression') {
    const object = pathOf(node.object as Expression);
    const property = node.property as Expression;
    if (!object) return null;
    if (!node.computed && property.type === 'Identifier') return [...object, property.name as string];
    if (node.computed && property.type === 'Literal' && typeof property.value === 'string') return [...object, property.value];
  }
  return null;
}

function checkAttribute(path: string[], schema: JsonSchema | null, field: string) {
  if (path[0] !== 'visitor' || path[1] !== 'claims' || path.length < 3) {
    throw badRequest(`${field}: "${path.join('.')}" is not a visitor attribute (use visitor.claims.<attribute>)`);
  }
  if (!schema) throw badRequest(`${field}: "${path.join('.')}" needs an adaptive schema on the site that defines it`);
  let node: JsonSchema | undefined = schema;
  for (const segment of path.slice(2)) {
    if (!node?.properties) return; // below a leaf attribute (e.g. a string's length): nothing more to check
    node = node.properties[segment];
    if (!node) throw badRequest(`${field}: the site's adaptive schema defines no attribute "${path.join('.')}"`);
  }
}

function walk(node: Expression, schema: JsonSchema | null, field: string): void {
  switch (node.type) {
    case 'Literal':
      return;
    case 'Identifier':
    case 'MemberExpression': {
      const path = pathOf(node);
      if (!path) throw badRequest(`${field}: only visitor.claims paths may be read`);
      if (path.length === 1 && ['true', 'false', 'null', 'undefined'].includes(path[0])) return;
      return checkAttribute(path, schema, field);
    }
    case 'UnaryExpression':
      if (!UNARY.has(node.operator as string)) throw badRequest(`${field}: operator "${node.operator}" is not allowed`);
      return walk(node.argument as Expression, schema, field);
    case 'BinaryExpression':
    case 'LogicalExpression':
      if (!BINARY.has(node.operator as string)) throw badRequest(`${field}: operator "${node.operator}" is not allowed`);
      walk(node.left as Expression, schema, field);
      return walk(node.right as Expression, schema, field);
    case 'ConditionalExpression':
      for (const part of [node.test, node.consequent, node.alternate]) walk(part as Expression, schema, field);
      return;
    case 'ArrayExpression':
      for (const element of node.elements as Expression[]) if (element) walk(element, schema, field);
      return;
    case 'CallExpression': {
      const callee = node.callee as Expression;
      const method = callee.type === 'MemberExpression' && !callee.computed ? ((callee.property as Expression).name as string) : undefined;
      if (!method || !METHODS.has(method)) throw badRequest(`${field}: only the methods ${[...METHODS].join(', ')} may be called`);
      walk(callee.object as Expression, schema, field);
      for (const argument of node.arguments as Expression[]) walk(argument, schema, field);
      return;
    }
    default:
      throw badRequest(`${field}: ${node.type} is not allowed in a condition`);
  }
}

/**
 * Checks a condition: 1 to 1024 characters, parses as an expression, uses only allowed constructs,
 * and reads only attributes defined by `adaptiveSchema` (the site's JSON Schema, or null). Throws a
 * 400 naming `field` and the problem; returns the condition as given.
 */
export function validateCondition(condition: string, adaptiveSchema: Record<string, unknown> | null, field = 'condition'): string {
  if (condition.length < 1) throw badRequest(`${field}: must be at least 1 character`);
  if (condition.length > 1024) throw badRequest(`${field}: must be at most 1024 characters`);
  let ast: Expression;
  try {
    ast = jsep(condition);
  } catch (error) {
    const { description, index } = error as { description?: string; index?: number };
    throw badRequest(`${field}: does not parse: ${description ?? String(error)}${index !== undefined ? ` at character ${index + 1}` : ''}`);
  }
  if (ast.type === 'Compound') throw badRequest(`${field}: must be a single expression`);
  walk(ast, adaptiveSchema, field);
  return condition;
}
