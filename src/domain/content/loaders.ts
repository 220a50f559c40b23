import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsWhereIn } from '../../db/statements.js';
import { rowLoader } from '../../kernel/loader.js';
import { ContentFile, PageVersion } from './entities.js';
import { readRevisions } from './store.js';

// Content rows are immutable, so plain rows (no entities) serve every read.
export function contentLoaders(em: EntityManager) {
  return {
    revision: rowLoader(
      async (ids: string[]) => (await readRevisions(em, ids)).revisions,
      (r) => r.id,
    ),
    pageVersion: rowLoader(
      (keys: string[]) => rowsWhereIn(em, PageVersion, 'key', keys),
      (v) => v.key,
    ),
    contentFile: rowLoader(
      (keys: string[]) => rowsWhereIn(em, ContentFile, 'key', keys),
      (f) => f.key,
    ),
  };
}

declare module '../../kernel/request-loaders.js' {
  interface Loaders extends ReturnType<typeof contentLoaders> {}
}
