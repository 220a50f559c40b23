import {
  getNullableType,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { getDirective } from '@graphql-tools/utils';
import { Components, orNull, type JsonSchema } from './components.js';
import { enumSchema } from './inputs.js';
import { scalarSchema } from './scalars.js';

type Fragments = Record<string, FragmentDefinitionNode>;

/**
 * The JSON schema of what a document's selection answers through the REST door: the selected fields of
 * each GraphQL type (aliases as named), nested. The router leaves null fields out of the body unless the
 * field is `@keepNull`, so a non-null field is required, a `@keepNull` one required and nullable, any
 * other one optional (present only with a value).
 */
export class SelectionSchemas {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly components: Components,
  ) {}

  /** The schema of a field's value given its sub-selection. */
  valueSchema(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined, fragments: Fragments): JsonSchema {
    const inner = getNullableType(type);
    if (isListType(inner)) {
      const item = this.valueSchema(inner.ofType, selectionSet, fragments);
      return { type: 'array', items: isNonNullType(inner.ofType) ? item : orNull(item) };
    }
    if (isScalarType(inner)) return scalarSchema(inner.name);
    if (isEnumType(inner)) return enumSchema(inner, this.components);
    if (!selectionSet) throw new Error(`OpenAPI: ${inner.name} selected without fields`);
    if (isObjectType(inner)) return this.objectSchema(inner, selectionSet, fragments);
    if (isAbstractType(inner)) {
      const variants = this.schema.getPossibleTypes(inner).map((possible) => this.objectSchema(possible, selectionSet, fragments));
      const distinct = [...new Map(variants.map((variant) => [JSON.stringify(variant), variant])).values()];
      return distinct.length === 1 ? distinct[0] : { oneOf: distinct };
    }
    throw new Error(`OpenAPI: unexpected output type ${String(type)}`);
  }

  /** One object type's selected fields, as a component. */
  private objectSchema(type: GraphQLObjectType, selectionSet: SelectionSetNode, fragments: Fragments): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const { key, field, selectionSet: sub } of this.fieldsOf(type, selectionSet, fragments)) {
      if (key in properties) continue;
      let value = key === '__typename' ? { type: 'string', const: type.name } : this.valueSchema(field!.type, sub, fragments);
      const keepNull = field && !!getDirective(this.schema, field, 'keepNull')?.length;
      const nonNull = !field || isNonNullType(field.type);
      if (keepNull && !nonNull) value = orNull(value);
      // OpenAPI 3.1 takes keywords beside $ref.
      if (field?.description) value = { ...value, description: field.description };
      properties[key] = value;
      if (nonNull || keepNull) required.push(key);
    }
    return this.components.variant(type.name, {
      type: 'object',
      ...(type.description ? { description: type.description } : {}),
      properties,
      ...(required.length ? { required } : {}),
    });
  }

  /** The fields a selection asks of `type`, through fragments whose condition `type` meets. */
  private *fieldsOf(
    type: GraphQLObjectType,
    selectionSet: SelectionSetNode,
    fragments: Fragments,
  ): Generator<{ key: string; field: GraphQLField<unknown, unknown> | undefined; selectionSet?: SelectionSetNode }> {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const key = selection.alias?.value ?? name;
        if (name === '__typename') yield { key, field: undefined };
        else yield { key, field: type.getFields()[name], selectionSet: selection.selectionSet };
        continue;
      }
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments[selection.name.value];
      const condition = fragment.typeCondition?.name.value;
      if (condition && !this.applies(condition, type)) continue;
      yield* this.fieldsOf(type, fragment.selectionSet, fragments);
    }
  }

  private applies(condition: string, type: GraphQLObjectType): boolean {
    if (condition === type.name) return true;
    const named = this.schema.getType(condition);
    return !!named && isAbstractType(named) && this.schema.isSubType(named, type);
  }
}
