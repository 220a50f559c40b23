import { createHmac, timingSafeEqual } from 'node:crypto';
import express, { type Router } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import { imageSize } from 'image-size';
import { z } from 'zod';
import { serverSecret } from '../../auth/secrets.js';
import type { AppDeps, Context } from '../../graphql/context.js';
import { notFound, payloadTooLarge } from '../../graphql/errors.js';
import { parseInput, text } from '../../graphql/validation.js';
import { newId } from '../../ids.js';
import { sendError } from '../../../rest-facade/router.js';
import type { Draft } from './editing.js';
import { ContentFile, FileBlob, type ContentFileRow } from './entities.js';
import { blobId } from './git.js';

/** Largest file accepted, in bytes (5 MiB; README). Its base64 needs BODY_LIMIT of about 7mb or more. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** How long a download URL works: until the end of the next full hour (so URLs stay stable within an hour). */
const URL_LIFETIME_MS = 60 * 60 * 1000;

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

// One signing key per database (tests run several servers in one process), read once.
const signingKeys = new WeakMap<object, Promise<Buffer>>();

function signingKey(em: EntityManager, clock: Context['clock']): Promise<Buffer> {
  const owner = em.config;
  let key = signingKeys.get(owner);
  if (!key) {
    key = serverSecret(em.fork(), clock, 'file-download-urls');
    key.catch(() => signingKeys.delete(owner));
    signingKeys.set(owner, key);
  }
  return key;
}

const signature = (key: Buffer, fileKey: string, expires: number) => createHmac('sha256', key).update(`${fileKey}|${expires}`).digest('base64url');

/** A download URL of this server for a stored file, signed and expiring (anyone holding it can fetch the bytes until then). */
export async function downloadUrl(ctx: Context, file: ContentFileRow): Promise<string> {
  const expires = (Math.floor(ctx.clock.now().getTime() / URL_LIFETIME_MS) + 2) * URL_LIFETIME_MS;
  const sig = signature(await signingKey(ctx.em, ctx.clock), file.key, expires);
  return `${ctx.config.publicUrl}/files/${file.key}/${encodeURIComponent(file.name)}?expires=${expires}&signature=${sig}`;
}

/** Types a browser may show inline; everything else downloads (no HTML or SVG runs on this origin). */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'application/pdf', 'text/plain']);

/** GET /files/:key/:name?expires&signature: the bytes of a file, for a valid unexpired signature. */
export function fileDownloadRouter(deps: AppDeps): Router {
  const router = express.Router();
  router.get('/:key/:name', async (req, res) => {
    try {
      const expires = Number(req.query.expires);
      const given = Buffer.from(String(req.query.signature ?? ''));
      if (!Number.isInteger(expires) || given.length === 0) return sendError(res, 400, 'expires and signature are required');
      const em = deps.orm.em.fork() as EntityManager;
      const expected = Buffer.from(signature(await signingKey(em, deps.clock), req.params.key, expires));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return sendError(res, 403, 'Invalid signature');
      if (expires < deps.clock.now().getTime()) return sendError(res, 403, 'This download URL has expired');
      const file = await em.findOne(ContentFile, { key: req.params.key });
      const blob = await em.findOne(FileBlob, { key: req.params.key });
      if (!file || !blob) return sendError(res, 404, 'File not found');
      const inline = INLINE_TYPES.has(file.contentType.split(';')[0]!.trim());
      res.setHeader('content-type', file.contentType);
      res.setHeader('content-length', String(blob.bytes.length));
      res.setHeader('content-disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`);
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader('content-security-policy', "default-src 'none'; sandbox");
      res.setHeader('cache-control', 'private, max-age=3600');
      return res.end(blob.bytes);
    } catch (error) {
      deps.logger.error({ err: error }, 'file download failed');
      return sendError(res, 500, 'Internal server error');
    }
  });
  return router;
}

