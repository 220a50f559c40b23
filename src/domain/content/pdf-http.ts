import express, { type Router } from 'express';
import type { AppDeps } from '../../kernel/context.js';
import { sendError, sendFailure } from '../../http/responses.js';
import { sendSignedBytes } from '../../http/signed-bytes.js';
import { renderPdf, subjectOf, type PdfSubject } from './pdf.js';
import { signatureProblem } from './signing.js';

/** GET /pdf/:spaceId?revision&page&only&expires&signature: the PDF a signed URL names. */
export function pdfRouter(deps: AppDeps): Router {
  const router = express.Router();
  router.get('/:spaceId', async (req, res) => {
    try {
      const subject: PdfSubject = {
        space: req.params.spaceId,
        revision: String(req.query.revision ?? ''),
        page: req.query.page ? String(req.query.page) : null,
        only: req.query.only === '1',
      };
      const em = deps.orm.em.fork();
      const problem = await signatureProblem(em, deps.clock, subjectOf(subject), req.query);
      if (problem) return sendError(res, ...problem);
      const pdf = await renderPdf(em, subject);
      if (!pdf) return sendError(res, 404, 'Content not found');
      return sendSignedBytes(res, { contentType: 'application/pdf', name: `${pdf.title || 'export'}.pdf`, bytes: pdf.bytes, inline: true });
    } catch (error) {
      return sendFailure(req, res, error, deps.logger, { endpoint: 'PDF export' });
    }
  });
  return router;
}
