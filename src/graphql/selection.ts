import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

type Selected = Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>;

/** The fields named `name` directly in a selection set (through fragments, whatever their type condition). */
function fieldsNamed(info: Selected, set: SelectionSetNode | undefined, name: string): FieldNode[] {
  return (set?.selections ?? []).flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value === name ? [selection] : [];
    if (selection.kind === Kind.INLINE_FRAGMENT) return fieldsNamed(info, selection.selectionSet, name);
    return fieldsNamed(info, info.fragments[selection.name.value]?.selectionSet, name);
  });
}

/**
 * Whether the field being resolved asks for the sub-field path `names` (e.g. `sections`, `items`,
 * `siteSpaces`), through fragments too, whatever their type conditions or directives say: for a
 * resolver that reads ahead what its children will need. A false yes only costs a read the request did
 * not need.
 */
export function selectsPath(info: Selected, ...names: string[]): boolean {
  let nodes: readonly FieldNode[] = info.fieldNodes;
  for (const name of names) {
    nodes = nodes.flatMap((node) => fieldsNamed(info, node.selectionSet, name));
    if (nodes.length === 0) return false;
  }
  return true;
}
