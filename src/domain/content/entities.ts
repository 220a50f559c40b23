import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Plain } from '../../db/statements.js';
import { Organization } from '../organizations/index.js';
import { Space } from '../spaces/index.js';
import type { Manifest } from './manifest.js';

/*
 * Storage of content. A revision is immutable: it names the root of a content-addressed tree (see
 * tree.ts) whose entries give the version row of each of its pages (with the page's place in the
 * tree) and files. An edit writes one new version row, one new entry and the few tree nodes above
 * it; every page it does not touch keeps its entry and version row, so neither bodies nor the page
 * list are copied between revisions. Version rows and tree rows belong to one space (a duplicate
 * copies them), which keeps transfers and purges a matter of the space id.
 */

/** An immutable snapshot of a space's content; every edit makes a new one whose parents name the previous. */
export const Revision = defineEntity({
  name: 'Revision',
  // A change request's revisions (its contributors' edits).
  indexes: [{ properties: ['changeRequest'] }],
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
    /** Hash of the root node of the revision's content tree; null when it holds no page and no file. */
    tree: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
export type RevisionRow = Plain<InferEntity<typeof Revision>>;
/** A revision as read: its row and its manifest (pages in tree order, files in order). */
export type RevisionContent = RevisionRow & Manifest;

/** One entry of content trees, stored once under its hash (see TreeEntry in tree.ts). */
export const ContentEntry = defineEntity({
  name: 'ContentEntry',
  properties: {
    hash: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade').index(),
    kind: p.string(),
    item: p.string(),
    version: p.string(),
    parent: p.string().nullable(),
    position: p.string().nullable(),
    name: p.string().nullable(),
    ordinal: p.integer().nullable(),
  },
});

/** One node of content trees, stored once under its hash: a leaf lists entry hashes, a branch child hashes. */
export const ContentNode = defineEntity({
  name: 'ContentNode',
  properties: {
    hash: p.string().primary(),
    organization: () => p.manyToOne(Organization).mapToPk().deleteRule('cascade'),
    space: () => p.manyToOne(Space).mapToPk().deleteRule('cascade').index(),
    entries: p.array().nullable(),
    children: p.array().nullable(),
  },
});

/** A page's cover as stored (see coverOf in editing.ts): a file of the content or a URL, and its vertical position. */
export type StoredCover = { ref: { kind: string; file?: string; url?: string }; yPos: number };

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
    cover: p.json<StoredCover>().nullable(),
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
export type PageVersionRow = Plain<InferEntity<typeof PageVersion>>;

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
export type ContentFileRow = Plain<InferEntity<typeof ContentFile>>;

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
export type FileBlobRow = Plain<InferEntity<typeof FileBlob>>;
