import compression from 'compression';
import type { RequestHandler } from 'express';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
const THRESHOLD_BYTES = 1024;

/**
 * gzip/deflate/br of answers above 1 KB whose type compresses (JSON of both doors, the playground's
 * scripts), as the client's Accept-Encoding allows. Types that are compressed already (the backup's
 * application/gzip, PDFs, images) are left alone by the `compressible` list the default filter reads.
 * Tokens never ride in cookies, so a page of another origin cannot make a browser send authenticated
 * requests and read their sizes: BREACH-style guessing does not apply.
 */
export const compressAnswers: RequestHandler = compression({ threshold: THRESHOLD_BYTES });
