import express, { type Router } from 'express';
import type { AppDeps } from '../../kernel/context.js';
import { sendError, sendFailure } from '../../http/responses.js';
import { sendSignedBytes } from '../../http/signed-bytes.js';
import { readStoredFile } from './files.js';
import { signatureProblem } from './signing.js';

/** Types a browser may show inline; everything else downloads (no HTML or SVG runs on this origin). */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'application/pdf', 'text/plain']);

/** GET /files/:key/:name?expires&signature: the bytes of a file, for a valid unexpired signature. */
export function fileDownloadRouter(deps: AppDeps): Router {
  const router = express.Router();
  router.get('/:key/:name', async (req, res) => {
    try {
      const em = deps.orm.em.fork();
      const problem = await signatureProblem(em, deps.clock, req.params.key, req.query);
      if (problem) return sendError(res, ...problem);
      const file = await readStoredFile(em, req.params.key);
      if (!file) return sendError(res, 404, 'File not found');
      const inline = INLINE_TYPES.has(file.contentType.split(';')[0].trim());
      return sendSignedBytes(res, { ...file, inline });
    } catch (error) {
      return sendFailure(req, res, error, deps.logger, { endpoint: 'file download' });
    }
  });
  return router;
}
