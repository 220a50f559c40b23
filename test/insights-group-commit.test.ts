/**
 * The group commit of ingestion (src/domain/insights/group-commit.ts) on its own, with a writer the test
 * controls: which items go together, in what order, and what each caller is answered. The ingestion
 * tests check the same through the REST door on the real database.
 */
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../src/domain/insights/index.js';

/** A writer whose writes wait until the test lets them finish, or fail. */
function controlledWriter(fails: (items: string[]) => boolean = () => false) {
  const writes: { items: string[]; finish: () => void }[] = [];
  const write = (items: string[]) =>
    new Promise<void>((resolve, reject) => {
      writes.push({ items, finish: () => (fails(items) ? reject(new Error(`failed: ${items.join(',')}`)) : resolve()) });
    });
  return { writes, write };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const sizes: Record<string, number> = { a: 1, b: 1, c: 1, d: 1, e: 1, big: 5 };

describe('group commit', () => {
  it('sends items that come while a write is in flight together in the next write, answering each after its own', async () => {
    const writer = controlledWriter();
    const group = new GroupCommit(writer.write, { writers: 1, maxSize: 100, sizeOf: (item: string) => sizes[item] });
    const done: string[] = [];
    const commits = ['a', 'b', 'c', 'd'].map((item) => group.commit(item).then(() => done.push(item)));
    await settle();
    expect(writer.writes.map((w) => w.items)).toEqual([['a']]);
    writer.writes[0].finish();
    await settle();
    expect(done).toEqual(['a']);
    expect(writer.writes.map((w) => w.items)).toEqual([['a'], ['b', 'c', 'd']]);
    writer.writes[1].finish();
    await Promise.all(commits);
    expect(done).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps as many writes in flight as it has writers', async () => {
    const writer = controlledWriter();
    const group = new GroupCommit(writer.write, { writers: 2, maxSize: 100, sizeOf: (item: string) => sizes[item] });
    const commits = ['a', 'b', 'c', 'd'].map((item) => group.commit(item));
    await settle();
    expect(writer.writes.map((w) => w.items)).toEqual([['a'], ['b']]);
    writer.writes[1].finish();
    await settle();
    expect(writer.writes.map((w) => w.items)).toEqual([['a'], ['b'], ['c', 'd']]);
    writer.writes[0].finish();
    writer.writes[2].finish();
    await Promise.all(commits);
  });

  it('stops a group at its largest size, and still writes an item larger than that alone', async () => {
    const writer = controlledWriter();
    const group = new GroupCommit(writer.write, { writers: 1, maxSize: 3, sizeOf: (item: string) => sizes[item] });
    const commits = ['a', 'b', 'c', 'd', 'e', 'big', 'a'].map((item) => group.commit(item));
    for (let i = 0; i < 5; i++) {
      await settle();
      writer.writes.at(-1)!.finish();
    }
    await Promise.all(commits);
    expect(writer.writes.map((w) => w.items)).toEqual([['a'], ['b', 'c', 'd'], ['e'], ['big'], ['a']]);
  });

  it('writes a failed group again item by item: only the item that fails alone is refused', async () => {
    const writer = controlledWriter((items) => items.includes('c'));
    const group = new GroupCommit(writer.write, { writers: 1, maxSize: 100, sizeOf: (item: string) => sizes[item] });
    const answers = Promise.allSettled(['a', 'b', 'c', 'd'].map((item) => group.commit(item)));
    for (let i = 0; i < 6; i++) {
      await settle();
      writer.writes.at(-1)?.finish();
    }
    const results = await answers;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason.message).toBe('failed: c');
    expect(writer.writes.map((w) => w.items)).toEqual([['a'], ['b', 'c', 'd'], ['b'], ['c'], ['d']]);
  });

  it('on close writes every item given (in flight and waiting) before it resolves, and refuses new ones', async () => {
    const writer = controlledWriter();
    const group = new GroupCommit(writer.write, { writers: 1, maxSize: 100, sizeOf: (item: string) => sizes[item] });
    const commits = ['a', 'b', 'c'].map((item) => group.commit(item));
    await settle();
    let closed = false;
    const closing = group.close().then(() => (closed = true));
    await expect(group.commit('d')).rejects.toThrow('closed');
    writer.writes[0].finish();
    await settle();
    expect(closed).toBe(false);
    expect(writer.writes.map((w) => w.items)).toEqual([['a'], ['b', 'c']]);
    writer.writes[1].finish();
    await closing;
    await Promise.all(commits);
  });
});
