import { sqlObservers } from '../../src/db/orm.js';

/** Runs `work` and returns how many SQL statements the server sent meanwhile. */
export async function countStatements(work: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const observe = () => {
    count += 1;
  };
  sqlObservers.add(observe);
  try {
    await work();
  } finally {
    sqlObservers.delete(observe);
  }
  return count;
}
