import type { EntityManager } from '@mikro-orm/postgresql';
import { imageSize } from 'image-size';
import type { Context } from '../../kernel/context.js';
import { notFound, payloadTooLarge } from '../../kernel/errors.js';
import { parseInput } from '../../kernel/validation.js';
import { newId } from '../../kernel/ids.js';
import type { Draft } from './editing.js';
import { ContentFile, FileBlob, type ContentFileRow } from './entities.js';
import { blobId } from './git.js';
import { signedQuery } from './signing.js';
import { UploadFileInput } from './inputs.js';

/** Largest file accepted, in bytes (5 MiB; README). Its base64 needs BODY_LIMIT of about 7mb or more. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  ico: 'image/x-icon',
  avif: 'image/avif',
};

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

/** The name, type and bytes of a stored file version (its key), or null when there is none. */
export async function readStoredFile(em: EntityManager, key: string): Promise<{ name: string; contentType: string; bytes: Uint8Array } | null> {
  const file = await em.findOne(ContentFile, { key });
  const blob = await em.findOne(FileBlob, { key });
  return file && blob ? { name: file.name, contentType: file.contentType, bytes: blob.bytes } : null;
}
