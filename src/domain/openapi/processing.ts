import { parse as parseYaml } from 'yaml';
import type { FetchConfig } from '../../kernel/config.js';
import { FetchFailure, fetchDocument } from '../../net/fetch-document.js';
import type { SpecOperation } from './entities.js';

export type ProcessErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';

/** The source as received and the document read from it (its `$ref`s as written), as JSON text. */
export type ProcessedDocument = { rawText: string; rawFormat: 'json' | 'yaml'; content: string };

/** What processing a source gave: the document's metadata, operations and content, or why it failed. */
export type ProcessOutcome =
  | ({ ok: true; version: string | null; title: string | null; format: string; operations: SpecOperation[] } & ProcessedDocument)
  | { ok: false; code: ProcessErrorCode; reason: string };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Nothing outside the document itself is read while resolving `$ref`s: no files, no URLs. */
const PARSER_OPTIONS = { resolve: { external: false }, dereference: { circular: 'ignore' as const } };

class ParseFailure extends Error {}

function parseText(text: string): Record<string, unknown> {
  // Kept as received (openapi_spec_version.raw_text), where PostgreSQL text holds no NUL character.
  if (text.includes('\u0000')) throw new ParseFailure('not JSON or YAML: the document holds a NUL character');
  let document: unknown;
  try {
    // YAML 1.2 is a superset of JSON: one parser reads both. Its alias limit stops "billion laughs".
    document = parseYaml(text);
  } catch (error) {
    throw new ParseFailure(`not JSON or YAML: ${(error as Error).message}`);
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) throw new ParseFailure('the document is not an object');
  return document as Record<string, unknown>;
}

const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/** `json` when the text is a JSON document, else `yaml` (which the parser read it as). */
function syntaxOf(text: string): 'json' | 'yaml' {
  if (!/^\s*\{/.test(text)) return 'yaml';
  try {
    JSON.parse(text);
    return 'json';
  } catch {
    return 'yaml';
  }
}

/** The operations of a dereferenced document, in document order. */
function operationsOf(document: Record<string, any>): SpecOperation[] {
  const operations: SpecOperation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths ?? {})) {
    if (!item || typeof item !== 'object') continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation || typeof operation !== 'object') continue;
      operations.push({
        path,
        method,
        operationId: textOrNull(operation.operationId),
        summary: textOrNull(operation.summary),
        description: textOrNull(operation.description),
        tags: Array.isArray(operation.tags) ? operation.tags.filter((t: unknown): t is string => typeof t === 'string') : [],
        deprecated: operation.deprecated === true,
      });
    }
  }
  return operations;
}

/** Parses and validates a specification text as OpenAPI 3.x or Swagger 2.0, resolving its `$ref`s. */
export async function readSpecification(text: string): Promise<ProcessOutcome> {
  try {
    const document = parseText(text);
    if (typeof document.openapi !== 'string' && document.swagger !== '2.0') {
      throw new ParseFailure('neither an OpenAPI 3.x (`openapi`) nor a Swagger 2.0 (`swagger: "2.0"`) document');
    }
    // Taken before dereferencing, which resolves the `$ref`s in place (and may leave cycles).
    const content = JSON.stringify(document);
    // Loaded with the first spec: ~25 MB a server that stores none need not hold.
    const { dereference, validate } = await import('@readme/openapi-parser');
    const result = await validate(structuredClone(document) as never, PARSER_OPTIONS);
    if (!result.valid)
      throw new ParseFailure(
        result.errors
          .map((e) => e.message)
          .join('; ')
          .slice(0, 500),
      );
    const resolved = (await dereference(document as never, PARSER_OPTIONS)) as Record<string, any>;
    const info = resolved.info ?? {};
    return {
      ok: true,
      version: info.version === undefined || info.version === null ? null : String(info.version),
      title: textOrNull(info.title),
      format: typeof resolved.openapi === 'string' ? `openapi ${resolved.openapi}` : 'swagger 2.0',
      operations: operationsOf(resolved),
      rawText: text,
      rawFormat: syntaxOf(text),
      content,
    };
  } catch (error) {
    return { ok: false, code: 'PARSE_ERROR', reason: (error as Error).message };
  }
}

/** Processes a source: fetches the URL (or takes the text), then reads the specification. Throws `cancel`'s reason once it is aborted. */
export async function processSource(source: { url: string | null; text: string | null }, config: FetchConfig, cancel?: AbortSignal): Promise<ProcessOutcome> {
  let text = source.text ?? '';
  if (source.url) {
    try {
      text = (await fetchDocument(source.url, config, undefined, cancel)).body;
    } catch (error) {
      if (cancel?.aborted) throw cancel.reason;
      const failure = error instanceof FetchFailure ? error : new FetchFailure('network', String(error));
      return { ok: false, code: failure.kind === 'timeout' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR', reason: failure.message };
    }
  }
  return readSpecification(text);
}
