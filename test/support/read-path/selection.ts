import { Kind, parse, type OperationDefinitionNode, type SelectionSetNode, type ValueNode } from 'graphql';

/**
 * A GraphQL selection as data: what the random selections produce, what the reference reader answers
 * and what is printed into the document sent to the server. Arguments are literals; an enum value is
 * `{ enum: name }` (printed bare), anything else is printed as JSON prints it.
 */
export type ArgValue = string | number | boolean | { enum: string };
export type Args = Readonly<Record<string, ArgValue>>;

export type FieldSelection = { field: string; alias?: string; args: Args; selection?: SelectionSet };

/** Fields of an object type; for a union, `__typename` and a fragment per member type that the selection names. */
export type SelectionSet = { fields: FieldSelection[]; fragments: { on: string; selection: SelectionSet }[] };

export const responseKey = (selection: FieldSelection) => selection.alias ?? selection.field;

/** An argument's value as the resolvers see it (an enum value is its name). */
export const plainArg = (value: ArgValue | undefined): string | number | boolean | undefined => (typeof value === 'object' ? value.enum : value);

const printArg = (value: ArgValue) => (typeof value === 'object' ? value.enum : JSON.stringify(value));

function printField(selection: FieldSelection, indent: string): string {
  const args = Object.entries(selection.args);
  const head = `${selection.alias ? `${selection.alias}: ` : ''}${selection.field}${args.length ? `(${args.map(([name, value]) => `${name}: ${printArg(value)}`).join(', ')})` : ''}`;
  return selection.selection ? `${indent}${head} ${printSet(selection.selection, indent)}` : `${indent}${head}`;
}

function printSet(set: SelectionSet, indent: string): string {
  const inner = `${indent}  `;
  const lines = [
    ...set.fields.map((field) => printField(field, inner)),
    ...set.fragments.map((fragment) => `${inner}... on ${fragment.on} ${printSet(fragment.selection, inner)}`),
  ];
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** The query document selecting these root fields. */
export const printDocument = (roots: FieldSelection[]) => `query ${printSet({ fields: roots, fragments: [] }, '')}`;

function literal(value: ValueNode): ArgValue {
  if (value.kind === Kind.ENUM) return { enum: value.value };
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.STRING || value.kind === Kind.BOOLEAN) return value.value;
  throw new Error(`Only literal strings, integers, booleans and enum values are supported, not ${value.kind}`);
}

function setOf(node: SelectionSetNode): SelectionSet {
  const set: SelectionSet = { fields: [], fragments: [] };
  for (const selection of node.selections) {
    if (selection.kind === Kind.FIELD) {
      set.fields.push({
        field: selection.name.value,
        ...(selection.alias ? { alias: selection.alias.value } : {}),
        args: Object.fromEntries((selection.arguments ?? []).map((arg) => [arg.name.value, literal(arg.value)])),
        ...(selection.selectionSet ? { selection: setOf(selection.selectionSet) } : {}),
      });
    } else if (selection.kind === Kind.INLINE_FRAGMENT && selection.typeCondition) {
      set.fragments.push({ on: selection.typeCondition.name.value, selection: setOf(selection.selectionSet) });
    } else {
      throw new Error('Only fields and inline fragments with a type condition are supported');
    }
  }
  return set;
}

/** The root fields of a query document written by hand (literal arguments, inline fragments only). */
export function rootsOf(document: string): FieldSelection[] {
  const [operation] = parse(document).definitions as OperationDefinitionNode[];
  return setOf(operation.selectionSet).fields;
}
