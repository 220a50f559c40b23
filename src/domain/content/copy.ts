import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../kernel/ids.js';
import { ContentFile, FileBlob, PageVersion, Revision, type RevisionRow } from './entities.js';
import { createTree, readRevision } from './store.js';

/**
 * A copy of a revision's content as the first revision of another space: new version rows (the same
 * page and file ids) so that each space owns its rows, and a tree of the new space's own. History is
 * not copied. The caller flushes.
 */
export async function copyContent(em: EntityManager, revisionId: string, target: { space: string; organization: string }, now: Date): Promise<RevisionRow> {
  const { revision: source } = await readRevision(em, revisionId);
  const owner = { organization: target.organization, space: target.space };
  const newKeys = new Map<string, string>();
  const rekey = (key: string) => {
    if (!newKeys.has(key)) newKeys.set(key, newId());
    return newKeys.get(key)!;
  };
  for (const version of await em.find(PageVersion, { key: { $in: source.pages.map((p) => p.version) } })) {
    em.create(PageVersion, { ...version, ...owner, key: rekey(version.key) });
  }
  const fileKeys = source.files.map((f) => f.version);
  for (const file of await em.find(ContentFile, { key: { $in: fileKeys } })) em.create(ContentFile, { ...file, ...owner, key: rekey(file.key) });
  for (const blob of await em.find(FileBlob, { key: { $in: fileKeys } })) em.create(FileBlob, { ...blob, ...owner, key: rekey(blob.key) });
  const pages = source.pages.map((p) => ({ ...p, version: rekey(p.version) }));
  const files = source.files.map((f) => ({ ...f, version: rekey(f.version) }));
  const { tree } = createTree(em, owner, { pages, files });
  return em.create(Revision, { id: newId(), ...owner, parents: [], type: 'edits', changeRequest: null, createdBy: null, tree, createdAt: now });
}
