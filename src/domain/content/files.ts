import express, { type Router } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import { imageSize } from 'image-size';
import { z } from 'zod';
import type { AppDeps, Context } from '../../graphql/context.js';
import { notFound, payloadTooLarge } from '../../graphql/errors.js';
import { parseInput, text } from '../../graphql/validation.js';
import { newId } from '../../ids.js';
import { sendError, sendFailure } from '../../../rest-facade/router.js';
import type { Draft } from './editing.js';
import { ContentFile, FileBlob, type ContentFileRow } from './entities.js';
import { blobId } from './git.js';
import { sendSignedBytes, signatureProblem, signedQuery } from './signing.js';

/** Largest file accepted, in bytes (5 MiB; README). Its base64 needs BODY_LIMIT of about 7mb or more. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

const UploadFileInput = z.object({
  name: text({ min: 1, max: 255 }).refine((name) => !/[/\\\0]/.test(name), { error: 'must not contain "/", "\\" or NUL' }),
  contentType: text({ max: 255 })
    .regex(/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/, { error: 'must be a media type such as image/png' })
    .optional()
    .nullable(),
  /** The bytes, base64-encoded. */
  content: z.string({ error: 'must be a string' }).regex(/^[A-Za-z0-9+/]*={0,2}$/, { error: 'must be base64' }),
});

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', bmp: 'image/bmp', tiff: 'image/tiff', ico: 'image/x-icon', avif: 'image/avif' };

/** Width, height and type of an image, or null for bytes that are no image image-size knows. */
function imageOf(bytes: Buffer): { width: number; height: number; type?: string } | null {
  try {
    const { width, height, type } = imageSize(bytes);
    return width && height ? { width, height, type } : null;
  } catch {
    return null;
  }
}

/** Stores an uploaded file (metadata and bytes) and adds it to the draft; returns its id. */
export function uploadFile(draft: Draft, input: unknown): string {
  const fields = parseInput(UploadFileInput, input);
  // base64 is 4 characters per 3 bytes: refuse an oversized upload before decoding it.
  if (fields.content.length > Math.ceil(MAX_FILE_BYTES / 3) * 4) throw payloadTooLarge(`content: files are limited to ${MAX_FILE_BYTES} bytes`);
  const bytes = Buffer.from(fields.content, 'base64');
  if (bytes.length > MAX_FILE_BYTES) throw payloadTooLarge(`content: files are limited to ${MAX_FILE_BYTES} bytes`);
  const image = imageOf(bytes);
  const id = newId();
  const key = newId();
  draft.tx.create(ContentFile, {
    key,
    organization: draft.organization,
    space: draft.space,
    file: id,
    name: fields.name,
    contentType: fields.contentType ?? (image?.type && IMAGE_TYPES[image.type]) ?? 'application/octet-stream',
    size: bytes.length,
    width: image?.width ?? null,
    height: image?.height ?? null,
    oid: blobId(bytes),
    createdAt: draft.now,
    createdBy: draft.author,
  });
  draft.tx.create(FileBlob, { key, organization: draft.organization, space: draft.space, bytes });
  draft.files.push({ file: id, version: key });
  return id;
}

export function removeFile(draft: Draft, fileId: string): void {
  if (!draft.files.some((f) => f.file === fileId)) throw notFound('File');
  draft.files = draft.files.filter((f) => f.file !== fileId);
}

/** A download URL of this server for a stored file, signed and expiring (anyone holding it can fetch the bytes until then). */
export async function downloadUrl(ctx: Context, file: ContentFileRow): Promise<string> {
  return `${ctx.config.publicUrl}/files/${file.key}/${encodeURIComponent(file.name)}?${await signedQuery(ctx.em, ctx.clock, file.key)}`;
}

/** Types a browser may show inline; everything else downloads (no HTML or SVG runs on this origin). */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'application/pdf', 'text/plain']);

/** GET /files/:key/:name?expires&signature: the bytes of a file, for a valid unexpired signature. */
export function fileDownloadRouter(deps: AppDeps): Router {
  const router = express.Router();
  router.get('/:key/:name', async (req, res) => {
    try {
      const em = deps.orm.em.fork() as EntityManager;
      const problem = await signatureProblem(em, deps.clock, req.params.key, req.query);
      if (problem) return sendError(res, ...problem);
      const file = await em.findOne(ContentFile, { key: req.params.key });
      const blob = await em.findOne(FileBlob, { key: req.params.key });
      if (!file || !blob) return sendError(res, 404, 'File not found');
      const inline = INLINE_TYPES.has(file.contentType.split(';')[0]!.trim());
      return sendSignedBytes(res, { contentType: file.contentType, name: file.name, bytes: blob.bytes, inline });
    } catch (error) {
      return sendFailure(req, res, error, deps.logger, { endpoint: 'file download' });
    }
  });
  return router;
}

