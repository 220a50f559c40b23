import { readFileSync, writeFileSync } from 'node:fs';
import { buildSchema } from './src/graphql/schema.ts';
import { loadConfig } from './src/config.ts';
import { openApiDocument } from './rest-facade/openapi/document.ts';
const doc: any = openApiDocument(buildSchema(), loadConfig({ PUBLIC_URL: 'http://docs.test' }));
writeFileSync('/tmp/openapi.json', JSON.stringify(doc, null, 1));
const ref = JSON.parse(readFileSync('node_modules/@gitbook/api/spec/openapi.json', 'utf8'));
const rows = readFileSync('test/fixtures/operations.tsv', 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'));
const two = (op: any) => Object.keys(op?.responses ?? {}).filter((s) => /^2/.test(s)).join(',');
for (const [, method, path, id, success] of rows) {
  const p = path.replace(/^\/v1/, ''); const m = method.toLowerCase();
  const mine = doc.paths[p]?.[m]; const theirs = ref.paths[p]?.[m];
  if (mine?.operationId !== id || theirs?.operationId !== id || two(mine) !== two(theirs)) console.log(id, success, two(mine), two(theirs), mine?.operationId, theirs?.operationId);
}
