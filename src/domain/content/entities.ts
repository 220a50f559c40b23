import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Organization } from '../organizations/entities.js';
import { Space } from '../spaces/entities.js';
import type { FileEntry, PageEntry } from './manifest.js';

/*
 * Storage of content. A revision is an immutable manifest: the ids of its pages (with their place in
 * the tree) and files, each pointing at an immutable version row. An edit writes one new version row
 * and a new manifest; every page it does not touch keeps pointing at the same version row, so bodies
 * are shared between revisions, never copied. Version rows belong to one space (a duplicate copies
 * them), which keeps transfers and purges a matter of the space id.
 */

/** An immutable snapshot of a space's content; every edit makes a new one whose parents name the previous. */
export const Revision = defineEntity({
  name: 'Revision',
  properties: {
    id: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade').index(),
    parents: p.json<string[]>(),
    /** edits, merge or update. */
    type: p.string(),
    /** The change request the revision was made in (edits, update) or merged from (merge). */
    changeRequest: p.string().nullable(),
    createdBy: p.string().nullable(),
    /** Pages in tree order (depth first, siblings by position), each naming its version row. */
    pages: p.json<PageEntry[]>().defaultRaw(`'[]'`),
    files: p.json<FileEntry[]>().defaultRaw(`'[]'`),
    createdAt: p.datetime(),
  },
});
export type RevisionRow = InferEntity<typeof Revision>;

/** One immutable state of a page (everything but its place in the tree, which the manifest holds). */
export const PageVersion = defineEntity({
  name: 'PageVersion',
  properties: {
    key: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade').index(),
    /** The page's id, the same in every revision. */
    page: p.string(),
    title: p.string(),
    emoji: p.string().nullable(),
    icon: p.string().nullable(),
    description: p.text().nullable(),
    markdown: p.text(),
    layout: p.json<Record<string, unknown>>().nullable(),
    cover: p.json<Record<string, unknown>>().nullable(),
    hidden: p.boolean(),
    noIndex: p.boolean(),
    noRobotsIndex: p.boolean(),
    /** Git blob id of the markdown (sha1 of "blob <size>\0<body>"). */
    oid: p.string(),
    /** When and by whom the page was first created (carried from version to version). */
    createdAt: p.datetime(),
    createdBy: p.string().nullable(),
    /** When and by whom this version was made. */
    updatedAt: p.datetime(),
    updatedBy: p.string().nullable(),
  },
});
export type PageVersionRow = InferEntity<typeof PageVersion>;

/** One uploaded file's metadata; its bytes are in FileBlob under the same key. Immutable. */
export const ContentFile = defineEntity({
  name: 'ContentFile',
  properties: {
    key: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade').index(),
    /** The file's id, the same in every revision. */
    file: p.string(),
    name: p.string(),
    contentType: p.string(),
    size: p.integer(),
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    /** Git blob id of the bytes. */
    oid: p.string(),
    createdAt: p.datetime(),
    createdBy: p.string().nullable(),
  },
});
export type ContentFileRow = InferEntity<typeof ContentFile>;

/** The bytes of a file, apart from its metadata so that listing files never reads them. */
export const FileBlob = defineEntity({
  name: 'FileBlob',
  properties: {
    key: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade').index(),
    bytes: p.blob(),
  },
});
export type FileBlobRow = InferEntity<typeof FileBlob>;
