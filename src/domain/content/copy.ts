import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../ids.js';
import { ContentFile, FileBlob, PageVersion, Revision, type RevisionRow } from './entities.js';

/**
 * A copy of a revision's content as the first revision of another space: new version rows (the same
 * page and file ids) so that each space owns its rows. History is not copied. The caller flushes.
 */
export async function copyContent(em: EntityManager, revisionId: string, target: { space: string; organization: string }, now: Date): Promise<RevisionRow> {
  const source = await em.findOneOrFail(Revision, { id: revisionId });
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
  return em.create(Revision, {
    id: newId(),
    ...owner,
    parents: [],
    type: 'edits',
    changeRequest: null,
    createdBy: null,
    pages: source.pages.map((p) => ({ ...p, version: rekey(p.version) })),
    files: source.files.map((f) => ({ ...f, version: rekey(f.version) })),
    createdAt: now,
  });
}
