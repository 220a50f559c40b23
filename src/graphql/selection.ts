import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * Whether the field being resolved asks for the sub-field `name` directly (through fragments too,
 * whatever their type conditions or directives say): for a resolver that reads ahead what its children
 * will need. A false yes only costs a read the request did not need.
 */
export function selectsField(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, name: string): boolean {
  const inSet = (set: SelectionSetNode | undefined): boolean =>
    !!set?.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value === name;
      if (selection.kind === Kind.INLINE_FRAGMENT) return inSet(selection.selectionSet);
      return inSet(info.fragments[selection.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((node) => inSet(node.selectionSet));
}
