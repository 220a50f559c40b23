import { imageSize } from 'image-size';

const MIME_OF: Record<string, string> = { jpg: 'image/jpeg', svg: 'image/svg+xml', ico: 'image/x-icon', cur: 'image/x-icon', tiff: 'image/tiff' };

/**
 * The base64 content of an image as a data: URL with its real media type, or null when it is not
 * base64 or does not decode as an image of a known format.
 */
export function imageDataUrl(base64: string): string | null {
  const compact = base64.replace(/\s+/g, '');
  if (!compact || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 === 1) return null;
  const bytes = Buffer.from(compact, 'base64');
  try {
    const { type, width, height } = imageSize(bytes);
    if (!type || !width || !height) return null;
    return `data:${MIME_OF[type] ?? `image/${type}`};base64,${bytes.toString('base64')}`;
  } catch {
    return null;
  }
}
