import type { EntityManager } from '@mikro-orm/postgresql';
import {
  getNamedType,
  isAbstractType,
  isEnumType,
  isNonNullType,
  isObjectType,
  Kind,
  type GraphQLField,
  type GraphQLOutputType,
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type SelectionSetNode,
  valueFromAST,
} from 'graphql';
import { getDirective } from '@graphql-tools/utils';
import { LRUCache } from 'lru-cache';
import sql, { empty, join, raw, type Sql } from 'sql-template-tag';
import type { Area } from '../kernel/area.js';
import type { Context } from '../kernel/context.js';
import { bindRequest } from '../kernel/request-values.js';
import {
  ALONG,
  type ManyRelation,
  type NestedSortKey,
  type ObjectExpression,
  type OneRelation,
  type PageRelation,
  type ReadModel,
  type ShapedObject,
} from '../kernel/read-models.js';
import { pageSize } from '../kernel/pagination.js';
import { plainPropertiesOf, quote, tableOf, type PlainProperty } from './statements.js';
import { nullsLeftOutIn, prebuiltAnswersAllowed } from '../kernel/prebuilt-answers.js';

/*
 * The read path's compiler: a selection of a read model's type (kernel/read-models.ts) becomes a Shape,
 * the JSON object the database builds for each row: the selected columns, the columns the selected
 * resolvers need, SQL fields, and each selected relation (without arguments) as a nested object or
 * list of its own selection. A list's page statement (db/pages.ts) reads its items as that object, so a
 * page and everything nested under it take one statement, whatever the number of items.
 *
 * Relations are read by level, as a hand-written statement would read them: the rows of a level are a
 * common table expression of the rows whose parents are the level above (`"<alias>:rows"`), a relation
 * to many is one grouped `json_agg` of its level by parent key, joined to the parent rows, and a
 * relation to one is a join. So what many rows share is looked up once per level, not once per row.
 *
 * A document's selection is the same object on every execution of that document (graphql-jit compiles
 * a document once; its field nodes are the parsed document's), so shapes are cached by field nodes, and
 * interned by their SQL so that equal selections at two places of a document share a loader.
 */

/**
 * A shape placed on the rows of its table under an alias: the JSON `object` of a row, which reads from
 * the `joins` that follow the rows' `from` item, and the common table expressions that the joins read.
 * The statement defines `levelRows(alias)`, the rows the object is built for (or a superset of them),
 * before the `ctes`, and builds no object for a row whose key is null.
 */
export type Placed = { readonly object: Sql; readonly joins: Sql; readonly ctes: readonly Sql[] };

/** The name of the common table expression that holds the rows of the level under `alias`. */
export const levelRows = (alias: string): Sql => raw(quote(`${alias}:rows`));

/** True when the placed shape reads nothing beside its row (no relation): its object stands alone. */
export const standsAlone = (placed: Placed) => placed.ctes.length === 0 && placed.joins === empty;

export type Shape = {
  /** Equal for equal statements (a loader's batch key). */
  readonly id: number;
  /** The shape on the rows of its table under `alias` (see Placed). */
  readonly place: (alias: string) => Placed;
  /** The column of the key of the model's rows. */
  readonly keyColumn: string;
  /** Makes a row read as this shape's JSON a row as the ORM's would be (date-times as dates), in place. */
  readonly hydrate: (row: Record<string, unknown>) => Record<string, unknown>;
  /**
   * The shape is the answer: `object` builds the GraphQL answer of the selection itself (response names
   * in selection order, values as the schema serializes them), which goes into the response as it is
   * (kernel/prebuilt-answers.ts).
   */
  readonly answers: boolean;
  /** The answer leaves out the null fields that REST leaves out (`leaveOutNullsIn`), keeping those marked @keepNull. */
  readonly nullsLeftOut: boolean;
  /**
   * The selection reads more than the row's own columns and SQL fields (pages, relations, objects): a
   * root field whose row is at hand (its guard read it) answers from the database only then.
   */
  readonly readsBeyondRow: boolean;
};

type Nested = { key: string; shape: CompiledShape };
type CompiledShape = Shape & {
  dates: readonly string[];
  nested: readonly Nested[];
  text: string;
  /** The same selection as the answer, when the database can build all of it (see `Compiler.compile`). */
  asAnswer: CompiledShape | null;
  /** Of an answer: the same answer without the null fields REST leaves out. */
  withoutNulls: CompiledShape | null;
};

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
      objects: { ...model.objects, ...extension.objects },
      relations: { ...model.relations, ...extension.relations },
      pages: { ...model.pages, ...extension.pages },
      shaped: { ...model.shaped, ...extension.shaped },
      joins: { ...model.joins, ...extension.joins },
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
    shape = compiler.compile(type, nodes);
    shapes.set(cacheKey, shape);
  }
  return shape;
}

/**
 * The shape as the answer when the database can build it and the request's executor takes prebuilt
 * answers, else the shape of rows.
 */
export function answerIfBuilt(ctx: Context, shape: Shape): Shape {
  const answer = prebuiltAnswersAllowed(ctx) ? (shape as CompiledShape).asAnswer : null;
  const chosen = answer ? (nullsLeftOutIn(ctx) ? answer.withoutNulls! : answer) : shape;
  return {
    ...chosen,
    place: (alias) => {
      const { object, joins, ctes } = chosen.place(alias);
      return { object: bindRequest(object, ctx), joins: bindRequest(joins, ctx), ctes: ctes.map((cte) => bindRequest(cte, ctx)) };
    },
  };
}

/** The shape of the items of the page of `type` that the field being resolved answers (as the answer when it can be). */
export const itemsShape = (ctx: Context, info: GraphQLResolveInfo, type: string): Shape =>
  answerIfBuilt(ctx, shapeOf(ctx.em, ctx.areas, info, type, ['items']));

/**
 * The fields selected under `nodes` for an object of `type` (null: any), by response name, fragments
 * flattened. `seen.conditional` becomes true when a selection carries a directive (@skip, @include),
 * which makes the selection depend on the variables.
 */
function fieldsOf(
  schema: GraphQLSchema,
  info: GraphQLResolveInfo,
  type: GraphQLObjectType | null,
  nodes: readonly FieldNode[],
  seen = { conditional: false },
): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const applies = (condition: string | undefined) => {
    if (!condition || !type || condition === type.name) return true;
    const named = schema.getType(condition);
    return !!named && isAbstractType(named) && schema.isSubType(named, type);
  };
  const visit = (set: SelectionSetNode | undefined) => {
    for (const selection of set?.selections ?? []) {
      if (selection.directives?.length) seen.conditional = true;
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

  /** `readable`: the rows are ones the viewer may read (items of a `readable` page), which answers `guarded` pages under them. */
  compile(typeName: string, nodes: readonly FieldNode[], readable = false): CompiledShape {
    const model = this.models.get(typeName);
    const type = this.info.schema.getType(typeName);
    if (!model || !isObjectType(type)) throw new Error(`No read model of the object type ${typeName}`);
    const properties = new Map(plainPropertiesOf(this.em, model.entity).map((prop) => [prop.name, prop]));
    const read = new Set<string>([model.key, ...(model.always ?? [])]);
    const readAll = () => properties.forEach((_, name) => read.add(name));
    const computed: { key: string; sql: Value }[] = [];
    const nested: (Nested & { relation: ManyRelation | OneRelation })[] = [];
    const keyColumn = properties.get(model.key)!.column;
    const graphqlFields = type.getFields();
    // The answer, field by field, while every selected field is one the database can answer exactly as
    // its resolver would: a column without a resolver, an SQL field, a relation read along (whose
    // resolvers take what was read as it is), or __typename; null once one is not.
    const seen = { conditional: false };
    const selected = fieldsOf(this.info.schema, this.info, type, nodes, seen);
    let answers: Entry[] | null = seen.conditional ? null : [];
    let readsBeyondRow = false;

    for (const [responseKey, fieldNodes] of selected) {
      const name = fieldNodes[0].name.value;
      const field = graphqlFields[name];
      if (name === '__typename') {
        answers?.push({ key: responseKey, value: () => raw(`'${typeName}'::text`) });
        continue;
      }
      const leaveOutNull = !isNonNullType(field.type) && !keepsNull(this.info.schema, field);
      const relation = model.relations?.[name];
      const expression = model.sql?.[name];
      const hasArguments = fieldNodes.some((node) => (node.arguments?.length ?? 0) > 0);
      const nestedAnswer = model.pages?.[name]
        ? this.pageAnswer(model.pages[name], field, fieldNodes, keyColumn, readable)
        : model.shaped?.[name] && !hasArguments
          ? this.shapedAnswer(model.shaped[name], field, fieldNodes)
          : undefined;
      if (nestedAnswer !== undefined) {
        // Answered by the database only; rows keep the field's resolver, which reads what it needs.
        if (nestedAnswer) answers?.push({ key: responseKey, value: nestedAnswer, json: true, leaveOutNull });
        else answers = null;
        readsBeyondRow = true;
        const needs = model.needs?.[name];
        if (needs) needs.forEach((need) => read.add(need));
        else readAll();
      } else if (relation && !hasArguments) {
        read.add('key' in relation ? relation.key : model.key);
        const target = 'one' in relation ? relation.one : relation.many;
        const shape = this.compile(target, fieldNodes);
        nested.push({ key: ALONG + responseKey, relation, shape });
        // A relation to one through a key that may be null answers null, which a non-null field refuses.
        const mayBeMissing = 'one' in relation && isNonNullType(field.type) && (!('key' in relation) || properties.get(relation.key)?.nullable !== false);
        const answer = shape.asAnswer;
        if (answer && !mayBeMissing) answers?.push({ key: responseKey, relation, shape: answer, leaveOutNull });
        else answers = null;
        readsBeyondRow = true;
      } else if (model.objects?.[name] && !hasArguments) {
        // Answered by the database only; rows keep the field's resolver, which reads what it needs.
        const answer = objectAnswer(this.info, model.objects[name], getNamedType(field.type).name, fieldNodes, this.em);
        if (answer) answers?.push({ key: responseKey, value: answer, json: true, leaveOutNull });
        else answers = null;
        readsBeyondRow = true;
        const needs = model.needs?.[name];
        if (needs) needs.forEach((need) => read.add(need));
        else readAll();
      } else if (expression) {
        const value: Value = (alias, joined) => expression(raw(quote(alias)), this.em, joined);
        computed.push({ key: ALONG + responseKey, sql: value });
        const answer = leafAnswer(field.type, value);
        if (answer) answers?.push({ key: responseKey, ...asJson(field.type, answer), leaveOutNull });
        else answers = null;
      } else if (!field?.resolve && properties.has(name)) {
        read.add(name);
        const prop = properties.get(name)!;
        const answer = leafAnswer(field.type, (alias) => raw(`${quote(alias)}.${quote(prop.column)}`), prop);
        if (answer) answers?.push({ key: responseKey, ...asJson(field.type, answer), leaveOutNull });
        else answers = null;
      } else {
        answers = null;
        const needs = model.needs?.[name];
        if (needs) needs.forEach((need) => read.add(need));
        else if (relation && 'key' in relation) read.add(relation.key);
        else readAll();
      }
    }

    const columns = [...read].map((name) => {
      const prop = properties.get(name);
      if (!prop) throw new Error(`Read model ${typeName}: ${name} is not a column of ${model.entity}`);
      return prop;
    });
    const rowEntries: Entry[] = [
      ...columns.map((prop) => ({ key: prop.name, value: (alias: string) => columnValue(alias, prop) })),
      ...computed.map(({ key, sql: value }) => ({ key, value })),
      ...nested.map(({ key, relation, shape }) => ({ key, relation, shape })),
    ];
    const dates = columns.filter((prop) => prop.date).map((prop) => prop.name);
    const pairs = answers;
    const answerIn = (form: 'graphql' | 'rest') =>
      intern(
        `${typeName}|${form}`,
        memoized((alias) => this.place(model, alias, pairs!, form)),
        keyColumn,
        [],
        [],
        form,
        readsBeyondRow,
      );
    const answer = pairs ? answerIn('graphql') : null;
    if (answer && !answer.withoutNulls) answer.withoutNulls = answerIn('rest');
    return intern(
      typeName,
      memoized((alias) => this.place(model, alias, rowEntries, 'rows')),
      keyColumn,
      dates,
      nested,
      answer,
      readsBeyondRow,
    );
  }

  /**
   * The answer of a list field with page arguments (kernel/read-models.ts PageRelation), written by the
   * database for the row under an alias: the selected `count`, `items` and `next` of its first page, read
   * in its order and bounded by its limit. Null (the resolver answers) when the arguments are not written
   * in the document (variables, a cursor), when the items cannot be answered, when they read levels
   * of their own (a relation to many under them), or when the field is guarded and its parent is not
   * known to be readable. A page's items nest pages of their own as subqueries of their rows.
   */
  private pageAnswer(
    page: PageRelation,
    field: GraphQLField<unknown, unknown>,
    nodes: readonly FieldNode[],
    parentKey: string,
    readable: boolean,
  ): Value | null {
    const written = literalArguments(field, nodes, page.arguments ?? []);
    const target = this.models.get(page.many);
    if (written === null || !target || (page.guarded && !readable)) return null;
    const { limit, values } = written;
    const pageType = getNamedType(field.type) as GraphQLObjectType;
    const seen = { conditional: false };
    const selected = fieldsOf(this.info.schema, this.info, pageType, nodes, seen);
    if (seen.conditional) return null;
    const members: PageMember[] = [];
    for (const [key, fieldNodes] of selected) {
      const name = fieldNodes[0].name.value;
      const member = pageType.getFields()[name];
      const leaveOutNull = !!member && !isNonNullType(member.type) && !keepsNull(this.info.schema, member);
      if (name === '__typename') members.push({ key, leaveOutNull, kind: 'typename', typeName: pageType.name });
      else if (name === 'count') members.push({ key, leaveOutNull, kind: 'count' });
      else if (name === 'items') {
        const items = this.compile(page.many, fieldNodes, !!page.readable).asAnswer;
        // One items member at most: two would place their joins under one alias.
        if (!items || items.place('x').ctes.length || members.some((m) => m.kind === 'items')) return null;
        members.push({ key, leaveOutNull, kind: 'items', items });
      } else if (name === 'next') {
        const nextType = getNamedType(member.type) as GraphQLObjectType;
        const next: { key: string; name: string }[] = [];
        for (const [nextKey, nextNodes] of fieldsOf(this.info.schema, this.info, nextType, fieldNodes, seen)) {
          const nextName = nextNodes[0].name.value;
          if (nextName !== 'page' && nextName !== '__typename') return null;
          next.push({ key: nextKey, name: nextName });
        }
        if (seen.conditional) return null;
        members.push({ key, leaveOutNull, kind: 'next', next, typeName: nextType.name });
      } else return null;
    }
    const table = tableOf(this.em, target.entity);
    return (alias, _joined, form) => {
      const item = raw(quote(`${alias}:page`));
      const list = page.list(item, raw(`${quote(alias)}.${quote(parentKey)}`), this.em, values);
      const itemsMember = members.find((m) => m.kind === 'items');
      const placed = itemsMember?.kind === 'items' ? (form === 'rest' ? itemsMember.items.withoutNulls! : itemsMember.items).place(`${alias}:page`) : null;
      const keys = list.order.map((key, i) => sql`${key.time ? sql`floor(extract(epoch from ${key.sql}) * 1000)::float8` : key.sql} as ${raw(`"k${i}"`)}`);
      const direction = (key: NestedSortKey) => raw(key.desc ? 'desc' : 'asc');
      // The row after the page tells whether there is a next page: read only when `next` is asked.
      const asksNext = members.some((member) => member.kind === 'next');
      const rows = sql`select ${join(keys, ', ')}${placed ? sql`, ${placed.object} as "item"` : empty} from ${table} ${item} ${placed?.joins ?? empty}
        where ${list.where} order by ${join(
          list.order.map((key) => sql`${key.sql} ${direction(key)}`),
          ', ',
        )} limit ${raw(String(asksNext ? limit + 1 : limit))}`;
      const keyOrder = (row: string) =>
        join(
          list.order.map((key, i) => sql`${raw(row)}.${raw(`"k${i}"`)} ${direction(key)}`),
          ', ',
        );
      // Numbered to tell the page's rows from the one after it; without `next`, every row read is the page's.
      const numbered = asksNext ? sql`select q.*, row_number() over (order by ${keyOrder('q')}) as "n" from (${rows}) q` : rows;
      const last = raw(String(limit));
      const pairs = members.map(({ key, leaveOutNull, ...member }): Pair => {
        switch (member.kind) {
          case 'typename':
            return { key, value: raw(`'${member.typeName}'::text`), json: false, leaveOutNull };
          case 'count':
            return { key, value: sql`(${list.count})::int::text`, json: true, leaveOutNull };
          case 'items':
            return {
              key,
              value: asksNext
                ? sql`coalesce('[' || string_agg(r."item", ',' order by r."n") filter (where r."n" <= ${last}) || ']', '[]')`
                : sql`coalesce('[' || string_agg(r."item", ',' order by ${keyOrder('r')}) || ']', '[]')`,
              json: true,
              leaveOutNull,
            };
          case 'next': {
            const next = member.next.map((part): Pair =>
              part.name === 'page'
                ? { key: part.key, value: sql`max(case when r."n" = ${last} then ${cursorOf(list.order)} end)`, json: false, leaveOutNull: false }
                : { key: part.key, value: raw(`'${member.typeName}'::text`), json: false, leaveOutNull: false },
            );
            return { key, value: sql`case when count(*) > ${last} then ${answerText(next, form === 'rest')} end`, json: true, leaveOutNull };
          }
        }
      });
      // Items and next aggregate the page's rows (one row whatever their number); a count alone reads none.
      const readsRows = members.some((member) => member.kind === 'items' || member.kind === 'next');
      return readsRows ? sql`(select ${answerText(pairs, form === 'rest')} from (${numbered}) r)` : sql`(select ${answerText(pairs, form === 'rest')})`;
    };
  }

  /**
   * The answer of a field of object type written from shapes of its own selection (kernel/read-models.ts
   * ShapedObject), or null (the resolver answers) when a shape or a selected field cannot be answered.
   */
  private shapedAnswer(object: ShapedObject, field: GraphQLField<unknown, unknown>, nodes: readonly FieldNode[]): Value | null {
    const shapes: CompiledShape[] = [];
    for (const { type, path } of object.shapes) {
      let at = nodes;
      for (const step of path) at = fieldsOf(this.info.schema, this.info, null, at).get(step) ?? [];
      const answer = this.compile(type, at).asAnswer;
      if (!answer) return null;
      shapes.push(answer);
    }
    const objectType = getNamedType(field.type) as GraphQLObjectType;
    const seen = { conditional: false };
    const members: { key: string; leaveOutNull: boolean; json: boolean; value: (o: Sql) => Sql }[] = [];
    for (const [key, fieldNodes] of fieldsOf(this.info.schema, this.info, objectType, nodes, seen)) {
      const name = fieldNodes[0].name.value;
      const member = objectType.getFields()[name];
      const value = name === '__typename' ? () => raw(`'${objectType.name}'::text`) : object.fields[name];
      if (!value) return null;
      const leaveOutNull = !!member && !isNonNullType(member.type) && !keepsNull(this.info.schema, member);
      members.push({ key, leaveOutNull, json: !!object.json?.includes(name), value });
    }
    if (seen.conditional) return null;
    return (alias, _joined, form) => {
      const o = raw('o');
      const pairs = members.map(({ key, leaveOutNull, json, value }) => ({ key, value: value(o), json, leaveOutNull }));
      const placed = shapes.map((shape) => (form === 'rest' ? shape.withoutNulls! : shape));
      return sql`(select ${answerText(pairs, form === 'rest')} from (${object.from(raw(quote(alias)), placed, this.em)} offset 0) o)`;
    };
  }

  /**
   * The object of `entries` for a row under `alias`, with the joins and levels its relations read: as the
   * JSON of a row, or as the JSON text of its answer (with its nulls, or without those REST leaves out).
   */
  private place(model: ReadModel, alias: string, entries: readonly Entry[], form: Form): Placed {
    const joins: Sql[] = [];
    const ctes: Sql[] = [];
    // Each row a level joins is looked up once per row, however many fields and relations read it
    // (a site space's title and its space): by the text of its lookup.
    const probes = new Map<string, string>();
    const probed = (entity: string, column: string, value: Sql, where: Sql, preferred: string, lookup?: Sql, computed: Sql = empty) => {
      const rows = lookup ?? sql`select j.*${computed} from ${tableOf(this.em, entity)} j where j.${this.column(entity, column)} = ${value} ${where}`;
      const known = probes.get(rows.text);
      if (known) return known;
      probes.set(rows.text, preferred);
      joins.push(sql`left join lateral (${rows} offset 0) ${raw(quote(preferred))} on true`);
      return preferred;
    };
    const self = raw(quote(alias));
    const joined = (name: string) => {
      const declared = model.joins?.[name];
      if (!declared) throw new Error(`Read model ${model.type} declares no join ${name}`);
      const where = declared.where ? sql`and ${declared.where(raw('j'))}` : empty;
      const computed = Object.entries(declared.computed ?? {}).map(([column, value]) => sql`, ${value(raw('j'))} as ${raw(quote(column))}`);
      return raw(
        quote(
          probed(
            declared.entity,
            declared.column,
            declared.value(self, this.em),
            where,
            `${alias}:${name}`,
            undefined,
            computed.length ? join(computed, '') : empty,
          ),
        ),
      );
    };
    let relations = 0;
    const pairs = entries.map((entry): Pair => {
      const { key, leaveOutNull = false } = entry;
      if ('value' in entry) return { key, value: entry.value(alias, joined, form), json: entry.json ?? false, leaveOutNull };
      const { relation } = entry;
      const shape = form === 'rest' ? entry.shape.withoutNulls! : entry.shape;
      const preferred = `${alias}_${relations++}`;
      if ('one' in relation) {
        // A relation to one is a lookup by its key (shared with a join of the same row).
        const target = this.models.get(relation.one)!;
        const inner =
          'key' in relation
            ? probed(target.entity, target.key, sql`${self}.${this.column(model.entity, relation.key)}`, empty, preferred)
            : probed(target.entity, target.key, empty, empty, preferred, relation.lookup(self, this.em));
        const placed = shape.place(inner);
        joins.push(placed.joins);
        // The target's own levels (a relation to many under it) read from its rows.
        if (placed.ctes.length)
          ctes.push(
            'key' in relation
              ? this.levelOf(target, this.column(target.entity, target.key), sql`p.${this.column(model.entity, relation.key)}`, alias, inner)
              : sql`${levelRows(inner)} as (select found.* from ${levelRows(alias)} p cross join lateral (${relation.lookup(raw('p'), this.em)} offset 0) found)`,
            ...placed.ctes,
          );
        const other = raw(quote(inner));
        const value = sql`case when ${other}.${this.column(target.entity, target.key)} is null then null else ${placed.object} end`;
        return { key, value, json: true, leaveOutNull };
      }
      const part = this.manyPart(model, alias, relation, shape, preferred);
      joins.push(...part.joins);
      ctes.push(...part.ctes);
      return { key, value: part.value, json: true, leaveOutNull };
    });
    return { object: form === 'rows' ? jsonObject(pairs) : answerText(pairs, form === 'rest'), joins: joins.length ? join(joins, ' ') : empty, ctes };
  }

  /**
   * A relation to many of the row under `alias`: a level of its own under `inner` (the rows whose foreign
   * key is a key of the level above) aggregated by parent in one `json_agg`, joined on the parent's key.
   */
  private manyPart(model: ReadModel, alias: string, relation: ManyRelation, shape: CompiledShape, inner: string) {
    const self = raw(quote(alias));
    const other = raw(quote(inner));
    const placed = shape.place(inner);
    const parentKey = this.column(model.entity, model.key);
    const target = this.models.get(relation.many)!;
    const foreignKey = this.column(target.entity, relation.foreignKey);
    const order = join(
      relation.order.map(([property, direction]) => sql`${other}.${this.column(target.entity, property)} ${raw(direction)}`),
      ', ',
    );
    const aggregate = raw(quote(`${inner}:agg`));
    return {
      value: sql`coalesce(${aggregate}.items, '[]')`,
      joins: [sql`left join ${aggregate} on ${aggregate}.parent = ${self}.${parentKey}`],
      ctes: [
        this.levelOf(target, foreignKey, sql`p.${parentKey}`, alias, inner),
        ...placed.ctes,
        sql`${aggregate} as (select ${other}.${foreignKey} as parent, ${listOf(shape, placed.object, order)} as items from ${levelRows(inner)} ${other} ${placed.joins} group by 1)`,
      ],
    };
  }

  /**
   * The rows of the level under `inner`: those of `target`'s table whose `column` holds a value of
   * `parentValue` (an expression of the level above's rows, `p`), read through the index on that column.
   */
  private levelOf(target: ReadModel, column: Sql, parentValue: Sql, alias: string, inner: string): Sql {
    return sql`${levelRows(inner)} as (${byKeys(sql`select r.* from ${tableOf(this.em, target.entity)} r where r.${column} = k.key`, parentValue, alias)})`;
  }

  private column(entity: string, property: string): Sql {
    const prop = plainPropertiesOf(this.em, entity, true).find((candidate) => candidate.name === property);
    if (!prop) throw new Error(`${entity}.${property} is not a column`);
    return raw(quote(prop.column));
  }
}

/**
 * A pair of a shape's object: a value of the row (`json` when it is JSON already), or a relation read at
 * its level. An answer's pairs say whether REST leaves them out when null.
 */
type Entry = ({ key: string; value: Value; json?: boolean } | { key: string; relation: ManyRelation | OneRelation; shape: CompiledShape }) & {
  leaveOutNull?: boolean;
};

/** What a shape's object is: a row's JSON, or the JSON text of its answer, with its nulls or as REST answers. */
type Form = 'rows' | 'graphql' | 'rest';

/** A value of a row under `alias`, which may read the model's joins. */
type Value = (alias: string, joined: (name: string) => Sql, form: Form) => Sql;

/** A placed pair: its key, its SQL value, whether that is JSON already, and whether REST leaves it out when null. */
type Pair = { key: string; value: Sql; json: boolean; leaveOutNull: boolean };

/**
 * The rows `rows` selects for each distinct value of `value` (an expression of `p`, the rows of the
 * level under `alias`), which `rows` names `k.key`: one probe of the index on the key per value, so that
 * a level costs what its rows cost whatever the table holds besides (a hash join would scan the whole
 * table when the planner misjudges the level's size, and a list of keys is searched linearly).
 */
function byKeys(rows: Sql, value: Sql, alias: string): Sql {
  return sql`select found.* from (select distinct ${value} as key from ${levelRows(alias)} p) k cross join lateral (${rows} offset 0) found`;
}

/** `build` with its statement kept per table alias. */
function memoized(build: (alias: string) => Placed): (alias: string) => Placed {
  const objects = new Map<string, Placed>();
  return (alias) => {
    let built = objects.get(alias);
    if (!built) objects.set(alias, (built = build(alias)));
    return built;
  };
}

/** The shape of that SQL, made once: equal selections share one shape (and so one loader batch). */
function intern(
  kind: string,
  place: (alias: string) => Placed,
  keyColumn: string,
  dates: readonly string[],
  nested: readonly Nested[],
  asAnswer: CompiledShape | null | 'graphql' | 'rest',
  readsBeyondRow: boolean,
): CompiledShape {
  const placed = place('x');
  const parts = [placed.object, placed.joins, ...placed.ctes];
  // Values too: a declaration's parameters (a counter's name) tell apart statements of equal text.
  const text = [...parts.map((part) => part.text), JSON.stringify(parts.map((part) => part.values))].join('\n');
  const answers = asAnswer === 'graphql' || asAnswer === 'rest';
  // Equal rows may answer different selections (aliases, __typename): their answers tell them apart.
  const key = `${kind}|${answers || !asAnswer ? '' : asAnswer.id}|${text}`;
  const known = interned.get(key);
  if (known) return known;
  const shape: CompiledShape = {
    id: ++shapeIds,
    place,
    keyColumn,
    dates,
    nested,
    text,
    answers,
    nullsLeftOut: asAnswer === 'rest',
    readsBeyondRow,
    asAnswer: answers ? null : asAnswer,
    withoutNulls: null,
    hydrate: (row) => hydrate(shape, row),
  };
  if (answers) shape.asAnswer = shape;
  if (asAnswer === 'rest') shape.withoutNulls = shape;
  interned.set(key, shape);
  return shape;
}

/** A JSON object of (key, value) pairs, built by the database. */
function jsonObject(pairs: readonly Pair[]): Sql {
  // A type the selection asks nothing of (a union's member without a fragment).
  if (pairs.length === 0) return sql`json_build_object()`;
  if (pairs.length <= MAX_PAIRS)
    return sql`json_build_object(${join(
      pairs.map(({ key, value }) => sql`${raw(`'${key.replaceAll("'", "''")}'`)}, ${value}`),
      ', ',
    )})`;
  return sql`(select row_to_json(built) from (select ${join(
    pairs.map(({ key, value }) => sql`${value} as ${raw(quote(key))}`),
    ', ',
  )}) built)`;
}

/**
 * The JSON text of an answer's object: its members in selection order, `"key":value`, joined by `||`.
 * With `leaveOutNulls` (REST), a null value leaves its member out where REST would; otherwise (and for
 * fields marked @keepNull) it is written `null`. Text rather than `json_build_object`: more compact (no
 * spaces), and it can leave members out without parsing the answer again. `||` rather than
 * `concat_ws`, which looks up the output function of each argument on every call (PostgreSQL 15).
 */
function answerText(pairs: readonly Pair[], leaveOutNulls: boolean): Sql {
  if (pairs.length === 0) return sql`'{}'::text`;
  const omissible = pairs.map(({ leaveOutNull }) => leaveOutNulls && leaveOutNull);
  // Members after the first that is always written carry their comma; before it, each carries one
  // that `substr` takes off the front (all of them may be left out).
  const firstAlways = omissible.indexOf(false);
  const members = pairs.map(({ key, value, json }, i) => {
    // Response names are GraphQL names: they need no escaping in JSON or SQL.
    const text = json ? value : sql`to_json(${value})::text`;
    const name = raw(`'${i === firstAlways ? '' : ','}"${key}":'`);
    return omissible[i] ? sql`coalesce(${name} || ${text}, '')` : sql`${name} || coalesce(${text}, 'null')`;
  });
  const joined = join(members, ' || ');
  return firstAlways === 0 ? sql`'{' || ${joined} || '}'` : sql`'{' || substr(${joined}, 2) || '}'`;
}

/** The JSON array of a shape's objects `item` in `order`, as the database aggregates them for its form (null for none). */
export function listOf(shape: Pick<Shape, 'answers'>, item: Sql, order: Sql): Sql {
  return shape.answers ? sql`'[' || string_agg(${item}, ',' order by ${order}) || ']'` : sql`json_agg(${item} order by ${order})`;
}

/** True when REST keeps the field's null (`@keepNull`: null means something there). */
function keepsNull(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): boolean {
  return !!getDirective(schema, field, 'keepNull')?.length;
}

/** The answer of a field of object type that the read model states in SQL, or null when a selected field is not stated. */
function objectAnswer(info: GraphQLResolveInfo, object: ObjectExpression, typeName: string, nodes: readonly FieldNode[], em: EntityManager): Value | null {
  const seen = { conditional: false };
  const selected = fieldsOf(info.schema, info, null, nodes, seen);
  if (seen.conditional) return null;
  const type = info.schema.getType(typeName) as GraphQLObjectType;
  const members: { key: string; leaveOutNull: boolean; plain: boolean; value: (row: Sql, joined: (name: string) => Sql) => Sql }[] = [];
  for (const [responseKey, fieldNodes] of selected) {
    const name = fieldNodes[0].name.value;
    const expression = name === '__typename' ? () => raw(`'${typeName}'::text`) : object.fields[name];
    if (!expression) return null;
    const field = type.getFields()[name];
    const leaveOutNull = !!field && !isNonNullType(field.type) && !keepsNull(info.schema, field);
    members.push({ key: responseKey, leaveOutNull, plain: !!field && textIsJson(field.type), value: (row, joined) => expression(row, em, joined) });
  }
  return (alias, joined, form) => {
    const row = raw(quote(alias));
    const pairs = members.map(({ key, leaveOutNull, plain, value }) => {
      const sqlValue = value(row, joined);
      return plain ? { key, value: sql`(${sqlValue})::text`, json: true, leaveOutNull } : { key, value: sqlValue, json: false, leaveOutNull };
    });
    if (object.rank) {
      // One answer per rank for the whole statement (an uncorrelated subquery, run once), picked per row
      // by its rank: a space's permissions cost 0.5 of the full tree's 8 ms less than their text per row.
      const ranks = raw(`array[${object.rank.values.map((value) => String(Math.trunc(value))).join(', ')}]::int[]`);
      const byRank = sql`(select array_agg(${answerText(pairs, form === 'rest')} order by o.rank) from unnest(${ranks}) o(rank))`;
      return sql`(${byRank})[${rankIndex(object.rank.values, object.rank.of(row, em, joined))}]`;
    }
    return answerText(pairs, form === 'rest');
  };
}

/** The position of a rank among `values` (1-based): its offset where they run on by one, else its position. */
function rankIndex(values: readonly number[], rank: Sql): Sql {
  const consecutive = values.every((value, i) => value === values[0] + i);
  return consecutive
    ? sql`(${rank})::int + ${raw(String(1 - values[0]))}`
    : sql`array_position(${raw(`array[${values.map((value) => String(Math.trunc(value))).join(', ')}]::int[]`)}, (${rank})::int)`;
}

/**
 * True for the scalars whose JSON is the SQL value's own text (`true`, `42`): their members are written
 * with `::text`, which spares `to_json` its type lookup on every call (0.3 ms of the full tree's 8).
 */
function textIsJson(type: GraphQLOutputType): boolean {
  const named = getNamedType(type).name;
  return named === 'Boolean' || named === 'Int';
}

/**
 * A leaf's answer as a pair's value: as its text when that is its JSON (textIsJson); a date-time's ISO
 * text (leafAnswer) in quotes, as it holds nothing JSON escapes; else for `to_json`.
 */
function asJson(type: GraphQLOutputType, value: Value): { value: Value; json: boolean } {
  if (textIsJson(type)) return { value: (alias, joined, form) => sql`(${value(alias, joined, form)})::text`, json: true };
  if (getNamedType(type).name === 'DateTime') return { value: (alias, joined, form) => sql`'"' || ${value(alias, joined, form)} || '"'`, json: true };
  return { value, json: false };
}

/** The built-in scalars whose JSON is the database's JSON of a value of these JavaScript types. */
const SCALAR_RUNTIME_TYPES: Readonly<Record<string, readonly string[]>> = {
  String: ['string'],
  ID: ['string'],
  Boolean: ['boolean'],
  Int: ['number'],
  Float: ['number'],
};

/**
 * A leaf's value in the answer, as the schema serializes it, or null when the database cannot write it
 * exactly so: a column that may be null under a non-null field (the executor would report an error), a
 * column whose type the scalar would convert, an enum whose values are not its names, another scalar.
 * `prop` is the column's property; without it (an SQL field) the area's declaration is trusted.
 */
function leafAnswer(type: GraphQLOutputType, value: Value, prop?: PlainProperty): Value | null {
  if (prop?.nullable && isNonNullType(type)) return null;
  const named = getNamedType(type);
  if (isEnumType(named)) return named.getValues().every((v) => v.value === v.name) && (!prop || prop.runtimeType === 'string') ? value : null;
  if (named.name === 'DateTime') {
    // Date#toISOString: UTC, milliseconds (truncated, as a Date made from the column is).
    return !prop || prop.date ? (alias, joined, form) => sql`to_char(${value(alias, joined, form)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : null;
  }
  const runtimeTypes = SCALAR_RUNTIME_TYPES[named.name];
  if (!runtimeTypes) return null;
  return !prop || runtimeTypes.includes(prop.runtimeType) ? value : null;
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

/** A member of a page's answer (Compiler.pageAnswer). */
type PageMember = { key: string; leaveOutNull: boolean } & (
  | { kind: 'typename'; typeName: string }
  | { kind: 'count' }
  | { kind: 'items'; items: CompiledShape }
  | { kind: 'next'; next: readonly { key: string; name: string }[]; typeName: string }
);

/**
 * The page size that the field's arguments write in the document (pagination.ts `pageSize`) and the
 * values of the other arguments the list takes (`taken`: as written, else the schema's defaults), or
 * null when an argument is in a variable, names a cursor, is one the list does not take, differs
 * between the field's nodes, or is out of bounds (the resolver then answers, and refuses what it must).
 */
function literalArguments(
  field: GraphQLField<unknown, unknown>,
  nodes: readonly FieldNode[],
  taken: readonly string[],
): { limit: number; values: Readonly<Record<string, unknown>> } | null {
  const written = nodes.map((node) => {
    let limit: number | undefined;
    const values: Record<string, unknown> = {};
    for (const argument of node.arguments ?? []) {
      const { name, value } = argument;
      if (name.value === 'page' && value.kind === Kind.NULL) continue;
      if (name.value === 'limit') {
        if (value.kind !== Kind.INT) return null;
        limit = Number(value.value);
        continue;
      }
      const declared = field.args.find((arg) => arg.name === name.value);
      // Without variables, a variable's value is undefined: the resolver answers.
      const literal = declared && taken.includes(name.value) ? valueFromAST(value, declared.type) : undefined;
      if (literal === undefined) return null;
      values[name.value] = literal;
    }
    for (const name of taken) if (!(name in values)) values[name] = field.args.find((arg) => arg.name === name)?.defaultValue ?? null;
    return { limit, values, text: JSON.stringify([limit ?? null, taken.map((name) => values[name])]) };
  });
  const first = written[0];
  if (!first || written.some((one) => one === null || one.text !== first.text)) return null;
  try {
    return { limit: pageSize(first.limit), values: first.values };
  } catch {
    return null;
  }
}

/**
 * The cursor of the page's last row `r` (its sort key's `k0`, `k1`… as a page statement reads them),
 * as pagination.ts `encodeCursor` writes it: the base64url of the key's JSON array.
 */
function cursorOf(order: readonly NestedSortKey[]): Sql {
  const parts = order.map((key, i) => {
    const value = raw(`r."k${i}"`);
    return sql`coalesce(${key.array ? sql`to_json(to_json(${value})::text)::text` : sql`to_json(${value})::text`}, 'null')`;
  });
  const json = sql`'[' || concat_ws(',', ${join(parts, ', ')}) || ']'`;
  return sql`rtrim(translate(encode(convert_to(${json}, 'UTF8'), 'base64'), E'+/\n', '-_'), '=')`;
}
