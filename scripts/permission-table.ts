import { getOperationAST, Kind, parse } from 'graphql';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { routes } from '../rest-facade/routes/index.js';
import { buildSchema, guardOf, type Guard } from '../src/graphql/schema.js';

/** Who holds a role on a team (team roles are not content roles; see Policy.teamRole). */
const TEAM_ROLE_HOLDERS: Partial<Record<string, string>> = {
  admin: 'organization admin or owner of the team',
  read: 'non-guest member of the team\'s organization, or owner of the team',
};

function describeGuard(guard: Guard | undefined): string {
  if (!guard) return '**none**';
  if (guard.kind === 'public') return 'anyone';
  if (guard.kind === 'authenticated') return 'any valid token';
  if (guard.kind === 'instanceAdmin') return 'instance administrator';
  const target = guard.on.toLowerCase().replaceAll('_', ' ');
  const needed =
    (guard.on === 'TEAM' ? TEAM_ROLE_HOLDERS[guard.role] : undefined) ??
    (guard.role === 'member' ? `member of the ${target} (guests included)` : `\`${guard.role}\` on the ${target}`);
  return guard.also ? `${needed}; also ${guard.also}` : needed;
}

/**
 * The Markdown table of every root field, the REST operations served by it and the role it needs,
 * generated from the schema's guard directives. README.md holds it; a test keeps the two in step.
 */
export function permissionTable(): string {
  const restByField = new Map<string, string[]>();
  for (const route of routes) {
    const root = getOperationAST(parse(route.document))?.selectionSet.selections[0];
    if (root?.kind !== Kind.FIELD) continue;
    restByField.set(root.name.value, [...(restByField.get(root.name.value) ?? []), `\`${route.operationId}\``]);
  }
  const schema = buildSchema();
  const lines = ['| GraphQL field | REST operations | needs |', '|---|---|---|'];
  for (const root of [schema.getQueryType()!, schema.getMutationType()!]) {
    for (const field of Object.values(root.getFields())) {
      const rest = restByField.get(field.name)?.join(', ') ?? '';
      lines.push(`| \`${root.name}.${field.name}\` | ${rest} | ${describeGuard(guardOf(schema, field as never))} |`);
    }
  }
  return lines.join('\n');
}

/** README.md with its generated permission table replaced by the current one. */
export function readmeWithTable(readme: string): string {
  return readme.replace(/(<!-- permissions:start[^\n]*-->\n)[\s\S]*?(\n<!-- permissions:end -->)/, `$1${permissionTable()}$2`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--write')) {
    const path = new URL('../README.md', import.meta.url);
    writeFileSync(path, readmeWithTable(readFileSync(path, 'utf8')));
  } else {
    process.stdout.write(permissionTable() + '\n');
  }
}
