import { readFileSync } from 'node:fs';

/** One operation of the contract: a row of shared/contract/operations.tsv. */
export type ContractOperation = { section: string; method: string; path: string; operationId: string; success: number[] };

/**
 * The contract's 129 operations, from test/fixtures/operations.tsv (a copy of the shared contract's, kept
 * equal to it by contract.test.ts). `success`: "204/205" answers 204; "200/201" is both.
 */
export function contractOperations(): ContractOperation[] {
  return readFileSync(new URL('../fixtures/operations.tsv', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [section, method, path, operationId, success] = line.split('\t') as [string, string, string, string, string];
      return { section, method, path, operationId, success: success === '204/205' ? [204] : success.split('/').map(Number) };
    });
}
