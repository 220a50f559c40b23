import type { EntityManager } from '@mikro-orm/postgresql';
import {
  isAbstractType,
  isObjectType,
  Kind,
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import sql, { join, raw, type Sql } from 'sql-template-tag';
import type { Area } from '../kernel/area.js';
import type { Context } from '../kernel/context.js';
import { ALONG, type ManyRelation, type OneRelation, type ReadModel } from '../kernel/read-models.js';
import { plainPropertiesOf, quote, tableOf, type PlainProperty } from './statements.js';

/*
 * The read path's compiler: a selection of a read model's type (kernel/read-models.ts) becomes a Shape,
 * the JSON object the database builds for each row: the selected columns, the columns the selected
 * resolvers need, SQL fields, and each selected relation (without arguments) as a nested object or
 * list of its own selection. A list's page statement (db/pages.ts) reads its items as that object, so a
 * page and everything nested under it take one statement, whatever the number of items.
 *
 * A document's selection is the same object on every execution of that document (graphql-jit compiles
 * a document once; its field nodes are the parsed document's), so shapes are cached by field nodes, and
 * interned by their SQL so that equal selections at two places of a document share a loader.
 */

export type Shape = {
  /** Equal for equal statements (a loader's batch key). */
  readonly id: number;
  /** `json_build_object(…)` of a row of the model's table under `alias`. */
  readonly object: (alias: string) => Sql;
  /** Makes a row read as this shape's JSON a row as the ORM's would be (date-times as dates), in place. */
  readonly hydrate: (row: Record<string, unknown>) => Record<string, unknown>;
};

type Nested = { key: string; shape: CompiledShape };
type CompiledShape = Shape & { dates: readonly string[]; nested: readonly Nested[]; text: string };

/** The read models of a list of areas, by type. */
const modelsOf = new WeakMap<readonly Area[], ReadonlyMap<string, ReadModel>>();

function readModels(areas: readonly Area[]): ReadonlyMap<string, ReadModel> {
  const models = modelsOf.get(areas);
  if (models) return models;
  const declared = areas.flatMap((area) => area.reads ?? []);
  const merged = new Map<string, ReadModel>();
  for (const model of declared) if (!('extends' in model)) merged.set(model.type, model);
  for (const extension of declared) {
    if (!('extends' in extension)) continue;
    const model = merged.get(extension.type);
    if (!model) throw new Error(`A read model extends ${extension.type}, which no area declares`);
    merged.set(extension.type, {
      ...model,
      needs: { ...model.needs, ...extension.needs },
      sql: { ...model.sql, ...extension.sql },
      relations: { ...model.relations, ...extension.relations },
    });
  }
  modelsOf.set(areas, merged);
  return merged;
}

/** Shapes by the field nodes they were compiled from, then by the path of the list under them (`items`). */
const byFieldNodes = new WeakMap<readonly FieldNode[], Map<string, CompiledShape>>();
/** Shapes by their SQL (bounded: documents come from clients). */
const interned = new LRUCache<string, CompiledShape>({ max: 2000 });
let shapeIds = 0;

/**
 * The shape of the objects of `type` that the field being resolved answers, at `path` below it (`['items']`
 * for a page of a list, `[]` for the field's own object or list).
 */
export function shapeOf(em: EntityManager, areas: readonly Area[], info: GraphQLResolveInfo, type: string, path: readonly string[] = []): Shape {
  let shapes = byFieldNodes.get(info.fieldNodes);
  if (!shapes) byFieldNodes.set(info.fieldNodes, (shapes = new Map<string, CompiledShape>()));
  const cacheKey = `${type}|${path.join('.')}`;
  let shape = shapes.get(cacheKey);
  if (!shape) {
    let nodes: readonly FieldNode[] = info.fieldNodes;
    // The steps are fields of wrapper types (a page's `items`), whose fragments all apply.
    for (const step of path) nodes = fieldsOf(info.schema, info, null, nodes).get(step) ?? [];
    const compiler = new Compiler(em, readModels(areas), info);
    shape = compiler.compile(type, nodes, 1);
    shapes.set(cacheKey, shape);
  }
  return shape;
}

/** The shape of the items of the page of `type` that the field being resolved answers. */
export const itemsShape = (ctx: Context, info: GraphQLResolveInfo, type: string): Shape => shapeOf(ctx.em, ctx.areas, info, type, ['items']);

/** The fields selected under `nodes` for an object of `type` (null: any), by response name, fragments flattened. */
function fieldsOf(schema: GraphQLSchema, info: GraphQLResolveInfo, type: GraphQLObjectType | null, nodes: readonly FieldNode[]): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const applies = (condition: string | undefined) => {
    if (!condition || !type || condition === type.name) return true;
    const named = schema.getType(condition);
    return !!named && isAbstractType(named) && schema.isSubType(named, type);
  };
  const visit = (set: SelectionSetNode | undefined) => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        fields.set(key, [...(fields.get(key) ?? []), selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (applies(selection.typeCondition?.name.value)) visit(selection.selectionSet);
      } else {
        const fragment = info.fragments[selection.name.value];
        if (fragment && applies(fragment.typeCondition.name.value)) visit(fragment.selectionSet);
      }
    }
  };
  for (const node of nodes) visit(node.selectionSet);
  return fields;
}

/** Pairs beyond which a row is built with row_to_json (json_build_object takes at most 100 arguments). */
const MAX_PAIRS = 50;

class Compiler {
  constructor(
    private readonly em: EntityManager,
    private readonly models: ReadonlyMap<string, ReadModel>,
    private readonly info: GraphQLResolveInfo,
  ) {}

  compile(typeName: string, nodes: readonly FieldNode[], depth: number): CompiledShape {
    const model = this.models.get(typeName);
    const type = this.info.schema.getType(typeName);
    if (!model || !isObjectType(type)) throw new Error(`No read model of the object type ${typeName}`);
    const properties = new Map(plainPropertiesOf(this.em, model.entity).map((prop) => [prop.name, prop]));
    const read = new Set<string>([model.key, ...(model.always ?? [])]);
    const readAll = () => properties.forEach((_, name) => read.add(name));
    const computed: { key: string; sql: (alias: string) => Sql }[] = [];
    const nested: (Nested & { relation: ManyRelation | OneRelation })[] = [];
    const graphqlFields = type.getFields();

    for (const [responseKey, fieldNodes] of fieldsOf(this.info.schema, this.info, type, nodes)) {
      const name = fieldNodes[0].name.value;
      if (name === '__typename') continue;
      const relation = model.relations?.[name];
      const expression = model.sql?.[name];
      const hasArguments = fieldNodes.some((node) => (node.arguments?.length ?? 0) > 0);
      if (relation && !hasArguments) {
        read.add('one' in relation ? relation.key : model.key);
        const target = 'one' in relation ? relation.one : relation.many;
        nested.push({ key: ALONG + responseKey, relation, shape: this.compile(target, fieldNodes, depth + 1) });
      } else if (expression) {
        computed.push({ key: ALONG + responseKey, sql: (alias) => expression(raw(quote(alias)), this.em) });
      } else if (!graphqlFields[name]?.resolve && properties.has(name)) {
        read.add(name);
      } else {
        const needs = model.needs?.[name];
        if (needs) needs.forEach((need) => read.add(need));
        else if (relation && 'one' in relation) read.add(relation.key);
        else readAll();
      }
    }

    const columns = [...read].map((name) => {
      const prop = properties.get(name);
      if (!prop) throw new Error(`Read model ${typeName}: ${name} is not a column of ${model.entity}`);
      return prop;
    });
    const objects = new Map<string, Sql>();
    const object = (alias: string): Sql => {
      let built = objects.get(alias);
      if (!built) objects.set(alias, (built = buildObject(alias)));
      return built;
    };
    const buildObject = (alias: string): Sql => {
      const pairs: [string, Sql][] = [
        ...columns.map((prop) => [prop.name, columnValue(alias, prop)] as [string, Sql]),
        ...computed.map(({ key, sql: value }) => [key, value(alias)] as [string, Sql]),
        ...nested.map(({ key, relation, shape }) => [key, this.relationValue(model, alias, relation, shape, depth)] as [string, Sql]),
      ];
      if (pairs.length <= MAX_PAIRS)
        return sql`json_build_object(${join(
          pairs.map(([key, value]) => sql`${raw(`'${key.replaceAll("'", "''")}'`)}, ${value}`),
          ', ',
        )})`;
      return sql`(select row_to_json(built) from (select ${join(
        pairs.map(([key, value]) => sql`${value} as ${raw(quote(key))}`),
        ', ',
      )}) built)`;
    };
    const dates = columns.filter((prop) => prop.date).map((prop) => prop.name);
    const text = object('x').text;
    const known = interned.get(`${typeName}|${text}`);
    if (known) return known;
    const shape: CompiledShape = {
      id: ++shapeIds,
      object,
      dates,
      nested,
      text,
      hydrate: (row) => hydrate(shape, row),
    };
    interned.set(`${typeName}|${text}`, shape);
    return shape;
  }

  /** A relation's value under a row: a correlated subquery of its table, through the index on its key. */
  private relationValue(model: ReadModel, alias: string, relation: ManyRelation | OneRelation, shape: CompiledShape, depth: number): Sql {
    const inner = `r${depth}`;
    const self = raw(quote(alias));
    const other = raw(quote(inner));
    if ('one' in relation) {
      const target = this.models.get(relation.one)!;
      return sql`(select ${shape.object(inner)} from ${tableOf(this.em, target.entity)} ${other} where ${other}.${this.column(target.entity, target.key)} = ${self}.${this.column(model.entity, relation.key)})`;
    }
    const target = this.models.get(relation.many)!;
    const order = join(
      relation.order.map(([property, direction]) => sql`${other}.${this.column(target.entity, property)} ${raw(direction)}`),
      ', ',
    );
    return sql`(select coalesce(json_agg(${shape.object(inner)} order by ${order}), '[]') from ${tableOf(this.em, target.entity)} ${other} where ${other}.${this.column(target.entity, relation.foreignKey)} = ${self}.${this.column(model.entity, model.key)})`;
  }

  private column(entity: string, property: string): Sql {
    const prop = plainPropertiesOf(this.em, entity, true).find((candidate) => candidate.name === property);
    if (!prop) throw new Error(`${entity}.${property} is not a column`);
    return raw(quote(prop.column));
  }
}

/** A column's value in the JSON: date-times as epoch milliseconds, which make a Date faster than a text does. */
function columnValue(alias: string, prop: PlainProperty): Sql {
  const column = `${quote(alias)}.${quote(prop.column)}`;
  return raw(prop.date ? `(extract(epoch from ${column}) * 1000)::float8` : column);
}

function hydrate(shape: CompiledShape, row: Record<string, unknown>): Record<string, unknown> {
  for (const name of shape.dates) {
    const value = row[name];
    if (value !== null) row[name] = new Date(value as number);
  }
  for (const { key, shape: inner } of shape.nested) {
    const value = row[key];
    if (Array.isArray(value)) for (const item of value) hydrate(inner, item as Record<string, unknown>);
    else if (value) hydrate(inner, value as Record<string, unknown>);
  }
  return row;
}
