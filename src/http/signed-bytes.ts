import type { Response } from 'express';

/** Answers the bytes a signed URL names: cached privately, never sniffed, never run as a page of this origin. */
export function sendSignedBytes(res: Response, body: { contentType: string; name: string; bytes: Uint8Array; inline: boolean }) {
  res.setHeader('content-type', body.contentType);
  res.setHeader('content-length', String(body.bytes.length));
  res.setHeader('content-disposition', `${body.inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(body.name)}`);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('content-security-policy', "default-src 'none'; sandbox");
  res.setHeader('cache-control', 'private, max-age=3600');
  return res.end(body.bytes);
}
