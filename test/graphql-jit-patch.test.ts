import { makeExecutableSchema } from '@graphql-tools/schema';
import { parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { describe, expect, it } from 'vitest';
import { prebuilt, stringifyAnswer } from '../src/kernel/prebuilt-answers.js';

/*
 * patches/graphql-jit+0.8.9.patch (applied by `npm install` through patch-package): a resolver that
 * answers synchronously is called without the three closures graphql-jit wraps every call in, and a
 * resolver declared with fewer than four parameters gets no resolve info (which graphql-jit builds
 * per call); a leaf whose value a built-in scalar returns unchanged (a string for String and ID, a
 * boolean, an integer of 32 bits, a finite number) is taken without the checking call; a composite value
 * marked prebuilt (kernel/prebuilt-answers.ts: an answer the database wrote) goes into the result as it
 * is. These tests hold the patch to graphql-jit's own semantics, and fail if it is not applied.
 */

function compiled(resolvers: Record<string, Record<string, unknown>>, query: string) {
  const schema = makeExecutableSchema({
    typeDefs: 'type Query { items: [Item!]! } type Item { n: Int! tripled: Int shown: String asked: String }',
    resolvers,
  });
  const result = compileQuery(schema, parse(query));
  if (!isCompiledQuery(result)) throw new Error('did not compile');
  return result;
}

const items = () => [{ n: 1 }, { n: 2 }];

describe('graphql-jit, patched', () => {
  it('resolves synchronous, promised, thrown and rejected values as before, calling each resolver once', async () => {
    let calls = 0;
    const query = compiled(
      {
        Query: { items },
        Item: {
          tripled: (item: { n: number }) => (calls++, item.n === 2 ? Promise.resolve(6) : 3),
          shown: (item: { n: number }) => {
            calls++;
            if (item.n === 1) throw new Error('thrown');
            return Promise.reject(new Error('rejected'));
          },
        },
      },
      '{ items { n tripled shown } }',
    );
    const result = await query.query(undefined, {}, {});
    expect(calls).toBe(4);
    expect(result.data).toEqual({
      items: [
        { n: 1, tripled: 3, shown: null },
        { n: 2, tripled: 6, shown: null },
      ],
    });
    expect(result.errors?.map((error) => [error.message, error.path])).toEqual([
      ['thrown', ['items', 0, 'shown']],
      ['rejected', ['items', 1, 'shown']],
    ]);
  });

  it('gives resolve info only to resolvers that declare a fourth parameter', async () => {
    const query = compiled(
      {
        Query: { items },
        Item: {
          shown: (_item: unknown, _args: unknown, _ctx: unknown, ...rest: unknown[]) => (rest[0] === undefined ? 'no info' : 'info'),
          asked: (_item: unknown, _args: unknown, _ctx: unknown, info: { fieldName: string; path: { key: unknown } }) => `${info.fieldName}@${info.path.key}`,
          tripled: (...args: unknown[]) => (args[3] as { fieldName: string }).fieldName.length,
        },
      },
      '{ items { shown asked tripled } }',
    );
    const result = await query.query(undefined, {}, {});
    expect(result.errors).toBeUndefined();
    // `...rest` after three parameters: length 3, so no info; `(...args)`: length 0, so info as before.
    expect(result.data).toEqual({
      items: [
        { shown: 'no info', asked: 'asked@asked', tripled: 7 },
        { shown: 'no info', asked: 'asked@asked', tripled: 7 },
      ],
    });
  });

  it('serializes leaves of built-in scalars as graphql-js does, taking values the scalar keeps as they are', async () => {
    const schema = makeExecutableSchema({
      typeDefs: 'type Query { leaves: [Leaf!]! } type Leaf { s: String! id: ID b: Boolean i: Int f: Float need: String! }',
      resolvers: {},
    });
    const query = compileQuery(schema, parse('{ leaves { s id b i f need } }'));
    if (!isCompiledQuery(query)) throw new Error('did not compile');
    const run = (leaf: Record<string, unknown>) =>
      query.query({ leaves: [leaf] }, {}, {}) as { data?: any; errors?: readonly { message: string; path?: readonly unknown[] }[] };
    expect(run({ s: 'a', id: 'x', b: true, i: -3, f: 1.5, need: 'n' }).data).toEqual({ leaves: [{ s: 'a', id: 'x', b: true, i: -3, f: 1.5, need: 'n' }] });
    // Values the scalar converts or refuses go through graphql-js' serializers, as without the patch.
    const converted = run({ s: 5, id: 7, b: null, i: 2.0, f: 3, need: 'n' });
    expect(converted.errors).toBeUndefined();
    expect(converted.data).toEqual({ leaves: [{ s: '5', id: '7', b: null, i: 2, f: 3, need: 'n' }] });
    const refused = run({ s: 'a', i: 2 ** 40, f: Infinity, need: null });
    expect(refused.data).toBeNull();
    expect(refused.errors?.map((error) => error.message).sort()).toEqual(
      [
        'Cannot return null for non-nullable field Leaf.need.',
        'Int cannot represent non 32-bit signed integer value: 1099511627776',
        'Float cannot represent non numeric value: Infinity',
      ].sort(),
    );
  });

  it('puts a prebuilt answer of an object or a list into the result as it is, and the answer writes its text', async () => {
    let nestedCalls = 0;
    const query = compiled(
      {
        Query: { items: () => prebuilt('[{"n" : 1, "tripled" : 3}]') },
        Item: { tripled: () => (nestedCalls++, 0) },
      },
      '{ items { n tripled } }',
    );
    const result = await query.query(undefined, {}, {});
    expect(result.errors).toBeUndefined();
    // The resolvers under a prebuilt part do not run: the database answered them.
    expect(nestedCalls).toBe(0);
    expect(stringifyAnswer(result)).toBe('{"data":{"items":[{"n" : 1, "tripled" : 3}]}}');
    // Any other serializer sees the value it stands for.
    expect(JSON.parse(JSON.stringify(result))).toEqual({ data: { items: [{ n: 1, tripled: 3 }] } });
    // A string that looks like a splice token stays a string.
    expect(stringifyAnswer({ text: '\u0000abc:0', items: prebuilt('[]') })).toBe('{"text":"\\u0000abc:0","items":[]}');
  });
});
