import type { EntityManager } from '@mikro-orm/postgresql';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { RootContent } from 'mdast';
import { z } from 'zod';
import type { Context } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import { parseInput } from '../../kernel/validation.js';
import { Space } from '../spaces/index.js';
import { PageVersion } from './entities.js';
import { readRevisions } from './store.js';
import { subtree, type PageEntry } from './manifest.js';
import { plainText } from './markdown.js';
import { pageIn } from './service.js';
import { signedQuery } from './signing.js';
import type { RevisionView } from './views.js';

/*
 * PDF export: the operation answers a signed, expiring URL of this server naming the (immutable)
 * revision and the pages to print; fetching that URL (pdf-http.ts) renders the PDF then, with pdfkit.
 */

const PdfArgs = z.object({ page: z.string().nullish(), only: z.boolean({ error: 'must be true or false' }).nullish() });

/** What a PDF URL names: a revision of a space, and optionally one page (alone, or with its descendants). */
export type PdfSubject = { space: string; revision: string; page: string | null; only: boolean };

/** What a PDF URL's signature signs. */
export const subjectOf = (s: PdfSubject) => `pdf|${s.space}|${s.revision}|${s.page ?? ''}|${s.only ? 1 : 0}`;

/** The signed URL of a PDF of the content: every page, or `page` with its descendants (only that page with `only`). */
export async function pdfUrl(ctx: Context, view: RevisionView, args: { page?: unknown; only?: unknown }): Promise<{ url: string }> {
  const { page, only } = parseInput(PdfArgs, { page: args.page, only: args.only });
  if (only && !page) throw badRequest('page: required when only is true');
  if (page) await pageIn(ctx, view, page);
  const subject: PdfSubject = { space: view.space.id, revision: view.revision.id, page: page ?? null, only: !!only };
  const params = new URLSearchParams({ revision: subject.revision, ...(subject.page ? { page: subject.page } : {}), ...(subject.only ? { only: '1' } : {}) });
  return { url: `${ctx.config.publicUrl}/pdf/${subject.space}?${params}&${await signedQuery(ctx.em, ctx.clock, subjectOf(subject))}` };
}

/** The pages to print, in tree order, with their depth (0 for the first level printed). */
function pagesToPrint(entries: PageEntry[], subject: PdfSubject): { entry: PageEntry; depth: number }[] {
  const chosen = subject.page ? (subject.only ? new Set([subject.page]) : subtree(entries, subject.page)) : null;
  const depth = new Map<string, number>();
  const out: { entry: PageEntry; depth: number }[] = [];
  for (const entry of entries) {
    if (chosen && !chosen.has(entry.page)) continue;
    const level = entry.parent && depth.has(entry.parent) ? depth.get(entry.parent)! + 1 : 0;
    depth.set(entry.page, level);
    out.push({ entry, depth: level });
  }
  return out;
}

const HEADING_SIZES = [18, 15, 13, 12, 11, 11];

function writeBlock(doc: PDFKit.PDFDocument, node: RootContent, indent = 0): void {
  const options = { indent };
  switch (node.type) {
    case 'heading':
      doc
        .moveDown(0.5)
        .font('Helvetica-Bold')
        .fontSize(HEADING_SIZES[node.depth - 1] ?? 11)
        .text(plainText(node), options)
        .font('Helvetica')
        .fontSize(11);
      return;
    case 'code':
      doc
        .font('Courier')
        .fontSize(9)
        .text(node.value, { indent: indent + 12 })
        .font('Helvetica')
        .fontSize(11)
        .moveDown(0.5);
      return;
    case 'list':
      node.children.forEach((item, i) => {
        const [first, ...rest] = item.children;
        doc.text(`${node.ordered ? `${(node.start ?? 1) + i}.` : '•'} ${first ? plainText(first) : ''}`, { indent: indent + 12 });
        for (const child of rest) writeBlock(doc, child, indent + 24);
      });
      doc.moveDown(0.5);
      return;
    case 'thematicBreak':
      doc.moveDown(0.5);
      return;
    case 'definition':
      return;
    default: {
      const text = plainText(node).trim();
      if (text) doc.text(text, options).moveDown(0.5);
    }
  }
}

/** Renders the pages of a revision as a PDF: each page's title, description and body, a new PDF page per document page. */
export async function renderPdf(em: EntityManager, subject: PdfSubject): Promise<{ title: string; bytes: Buffer } | null> {
  const [space, { revisions }] = await Promise.all([em.findOne(Space, { id: subject.space }), readRevisions(em, [subject.revision])]);
  const revision = revisions.find((r) => r.space === subject.space);
  if (!space || space.deletedAt || !revision) return null;
  const pages = pagesToPrint(revision.pages, subject);
  if (subject.page && pages.length === 0) return null;
  const versions = new Map((await em.find(PageVersion, { key: { $in: pages.map((p) => p.entry.version) } })).map((v) => [v.key, v]));
  // Loaded on the first PDF: the library and its fonts are ~30 MB a server that prints none need not hold.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: space.title } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  pages.forEach(({ entry, depth }, i) => {
    const version = versions.get(entry.version)!;
    if (i > 0) doc.addPage();
    doc
      .font('Helvetica-Bold')
      .fontSize(Math.max(22 - depth * 2, 14))
      .text(version.title)
      .moveDown(0.5);
    doc.font('Helvetica').fontSize(11);
    if (version.description) doc.fillColor('#555555').text(version.description).fillColor('black').moveDown(0.5);
    for (const node of fromMarkdown(version.markdown).children) writeBlock(doc, node);
  });
  if (pages.length === 0) doc.font('Helvetica').fontSize(11).text(space.title);
  doc.end();
  await done;
  return { title: space.title, bytes: Buffer.concat(chunks) };
}
