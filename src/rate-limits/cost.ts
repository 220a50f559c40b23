import { getOperationAST, Kind, parse, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/** The budgets a request may draw on: reads (queries), writes (mutations), insights ingestion. */
export type RateClass = 'reads' | 'writes' | 'insights';

/** What a request takes from its caller's budget. */
export type Cost = { rateClass: RateClass; points: number };

/**
 * Root mutation fields that ingest insights events (src/domain/insights: `trackSiteEvents`, which the
 * REST route `trackEventsInSiteById` runs): they draw on their own budget, sized for page-view traffic.
 */
const INGESTION_FIELDS: ReadonlySet<string> = new Set(['trackSiteEvents']);

const READ: Cost = { rateClass: 'reads', points: 1 };

/** Names of the root fields an operation selects, fragments included (each counted once per name it is selected under). */
function rootFieldsOf(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen = new Set<string>()): string[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFieldsOf(selection.selectionSet, fragments, seen);
    // Unvalidated documents (a failed authentication is counted before validation) may spread in circles.
    const fragment = fragments.get(selection.name.value);
    if (!fragment || seen.has(fragment.name.value)) return [];
    seen.add(fragment.name.value);
    return rootFieldsOf(fragment.selectionSet, fragments, seen);
  });
}

/**
 * The cost of a GraphQL operation, the same for both doors: a query is one read; a mutation is a write
 * per root field (a document of 20 aliased mutations does 20 writes' work), or an ingestion per root
 * field when every one of them ingests insights events.
 */
export function costOf(document: DocumentNode, operationName?: string | null): Cost {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'mutation') return READ;
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  const fields = rootFieldsOf(operation.selectionSet, fragments);
  const rateClass = fields.length && fields.every((name) => INGESTION_FIELDS.has(name)) ? 'insights' : 'writes';
  return { rateClass, points: Math.max(1, fields.length) };
}

/**
 * The cost of a /graphql request that failed before Apollo parsed it (its token was refused): from its
 * document's text, a read when it does not parse. Its size is bounded already (GRAPHQL_MAX_TOKENS).
 */
export function costOfGraphqlRequest(req: { method: string; body?: unknown; query?: unknown }): Cost {
  const params = (req.method === 'GET' ? req.query : req.body) as { query?: unknown; operationName?: unknown } | undefined;
  if (typeof params?.query !== 'string') return READ;
  try {
    return costOf(parse(params.query), typeof params.operationName === 'string' ? params.operationName : undefined);
  } catch {
    return READ;
  }
}
