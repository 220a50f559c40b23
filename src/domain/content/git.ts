import { createHash } from 'node:crypto';

/** The git blob id of some content (sha1 of "blob <size>\0<content>"), as a git export would name it. */
export function blobId(content: string | Buffer): string {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
