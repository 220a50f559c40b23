import { hash } from 'node:crypto';
import { badRequest } from './errors.js';

/*
 * Entity tags (RFC 9110 §8.8.3): what a representation's strong ETag is, and how the preconditions
 * that name one are read and judged. Both doors use these: the REST facade's GET answers and writes,
 * the GraphQL `etag` fields and `ifMatch` arguments.
 */

/**
 * The strong ETag of a representation: a hash of its bytes, so it changes exactly when they do. SHA-1
 * is no defence here (the tag is no secret and guards nothing against its own viewer), only a short,
 * fast fingerprint; 160 bits leave no practical chance of two answers sharing one.
 */
export const strongEtagOf = (body: string | Buffer): string => `"${hash('sha1', body, 'base64url')}"`;

/** An entity-tag: an optional weakness prefix, then a quoted string of visible characters other than `"`. */
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/** A precondition's entity tags: `*` (any current representation) or the listed tags as sent. */
export type EtagCondition = '*' | readonly string[];

/**
 * Reads an `If-Match` / `If-None-Match` value (`*`, or a comma-separated list of entity tags); throws
 * a 400 naming `name` when it is neither, rather than guessing what the client meant.
 */
export function parseEtagCondition(name: string, value: string): EtagCondition {
  const trimmed = value.trim();
  if (trimmed === '*') return '*';
  const tags = trimmed
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  if (!tags.length || tags.some((tag) => !ENTITY_TAG.test(tag)))
    throw badRequest(`${name}: expected "*" or a comma-separated list of entity tags, such as "\\"abc\\"" (an ETag as answered)`);
  return tags;
}

/**
 * Whether `If-Match` holds (RFC 9110 §13.1.1): `*` when the resource exists, else one listed tag equals
 * the current one by strong comparison (a weak tag never matches).
 */
export function ifMatchHolds(condition: EtagCondition, current: string | null): boolean {
  if (current === null) return false;
  if (condition === '*') return true;
  return condition.some((tag) => tag === current);
}
