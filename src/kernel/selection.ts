import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

type Selected = Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>;

/** The selection sets of the sub-field `name` in `sets`, through fragments whatever their type conditions or directives. */
function subSelections(sets: readonly (SelectionSetNode | undefined)[], name: string, fragments: Selected['fragments']): SelectionSetNode[] {
  const found: SelectionSetNode[] = [];
  const visit = (set: SelectionSetNode | undefined): void => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === name) found.push(selection.selectionSet ?? { kind: Kind.SELECTION_SET, selections: [] });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else visit(fragments[selection.name.value]?.selectionSet);
    }
  };
  sets.forEach(visit);
  return found;
}

/**
 * Whether the field being resolved asks for the sub-field at `path` (`['items', 'siteSpaces']`: its
 * items' site spaces), through fragments too: for a resolver that reads ahead what its children will
 * need. A false yes only costs a read the request did not need.
 */
export function selectsPath(info: Selected, path: readonly string[]): boolean {
  let sets: SelectionSetNode[] = info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  for (const name of path) {
    sets = subSelections(sets, name, info.fragments);
    if (sets.length === 0) return false;
  }
  return true;
}

/** Whether the field being resolved asks for the sub-field `name` directly. */
export const selectsField = (info: Selected, name: string): boolean => selectsPath(info, [name]);
