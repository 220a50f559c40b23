import { getOperationAST, isObjectType, Kind, parse } from 'graphql';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { routes } from '../rest-facade/routes/index.js';
import { declaredAlternative, declaredCheck, guardRegistry, runsInGuard, type GuardRegistry } from '../src/kernel/checks.js';
import { buildSchema, guardOf, registryOf, type Guard } from '../src/graphql/schema.js';
import { areas } from '../src/areas.js';

/** Who holds a role on a team (team roles are not content roles; see Policy.teamRole). */
const TEAM_ROLE_HOLDERS: Partial<Record<string, string>> = {
  admin: 'organization admin or owner of the team',
  read: "non-guest member of the team's organization, or owner of the team",
};

/** The role part of a `@requires`: who holds `role` on the target. */
function describeRole(guard: Extract<Guard, { kind: 'requires' }>): string {
  const target = guard.on.toLowerCase().replaceAll('_', ' ');
  const holder = guard.arg.startsWith('$parent.') ? `${target} it belongs to` : target;
  return (
    (guard.on === 'TEAM' ? TEAM_ROLE_HOLDERS[guard.role] : undefined) ??
    (guard.role === 'member' ? `member of the ${holder} (guests included)` : `\`${guard.role}\` on the ${holder}`)
  );
}

function describeGuard(registry: GuardRegistry, guard: Guard | undefined): string {
  if (!guard) return '**none**';
  if (guard.kind === 'public') return 'anyone';
  if (guard.kind === 'authenticated') return 'any valid token';
  if (guard.kind === 'instanceAdmin') return 'instance administrator';
  const alternative = guard.or ? `, or ${declaredAlternative(registry, guard.or)!.description[guard.on]} (\`${guard.or}\`)` : '';
  const checks = (guard.check ?? []).map((name) => `; also ${declaredCheck(registry, name)!.description} (\`${name}\`)`);
  return describeRole(guard) + alternative + checks.join('');
}

/**
 * The lowest role cap a token may carry and still run the field (kernel/token-scope.ts): the role the
 * guard needs (a cap only lowers roles); `comment` at least for a mutation (a `read` token never writes);
 * an unlimited token for instance administration and for account mutations not open to limited tokens.
 */
function lowestCap(guard: Guard | undefined, mutation: boolean): string {
  const UNLIMITED = 'unlimited token';
  if (!guard || guard.kind === 'public') return 'any';
  if (guard.kind === 'instanceAdmin') return UNLIMITED;
  if (guard.kind === 'authenticated') {
    if (!mutation) return 'any';
    return guard.scopedTokens ? '`comment`, within its own scope' : UNLIMITED;
  }
  const needed = guard.role === 'member' ? 'read' : guard.role;
  return `\`${mutation && needed === 'read' ? 'comment' : needed}\``;
}

/**
 * The Markdown table of every root field (and every guarded field of an object type), the REST
 * operations served by it and what it needs, generated from the schema's guard directives and the
 * descriptions of the checks they name.
 */
export function permissionTable(): string {
  const restByField = new Map<string, string[]>();
  for (const route of routes) {
    const root = getOperationAST(parse(route.document))?.selectionSet.selections[0];
    if (root?.kind !== Kind.FIELD) continue;
    restByField.set(root.name.value, [...(restByField.get(root.name.value) ?? []), `\`${route.operationId}\``]);
  }
  const schema = buildSchema(areas);
  const registry = registryOf(schema);
  const roots = [schema.getQueryType()!, schema.getMutationType()!, schema.getSubscriptionType()!];
  const lines = ['| GraphQL field | REST operations | needs | lowest token cap |', '|---|---|---|---|'];
  for (const root of roots) {
    for (const field of Object.values(root.getFields())) {
      const rest = restByField.get(field.name)?.join(', ') ?? '';
      const guard = guardOf(schema, field as never);
      lines.push(`| \`${root.name}.${field.name}\` | ${rest} | ${describeGuard(registry, guard)} | ${lowestCap(guard, root === schema.getMutationType())} |`);
    }
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || roots.includes(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const guard = guardOf(schema, field as never);
      if (guard) lines.push(`| \`${type.name}.${field.name}\` |  | ${describeGuard(registry, guard)} | ${lowestCap(guard, false)} |`);
    }
  }
  return lines.join('\n');
}

/** The Markdown table of the named checks and alternatives that guards may name, from their declarations. */
export function checkTable(): string {
  const lines = ['| name | what it asks | after a guard on | reads | enforced |', '|---|---|---|---|---|'];
  const list = (items: readonly string[]) => items.map((item) => `\`${item}\``).join(', ');
  const { checks, alternatives } = guardRegistry(areas);
  for (const [name, check] of Object.entries(checks)) {
    lines.push(
      `| \`${name}\` | ${check.description} | ${list(check.on)} | ${list(check.reads)} | ${runsInGuard(check) ? 'by the guard' : 'in the writing transaction'} |`,
    );
  }
  for (const [name, alternative] of Object.entries(alternatives)) {
    const targets = Object.keys(alternative.description) as (keyof typeof alternative.description)[];
    const asks = targets.map((target) => `or ${alternative.description[target]} (on a ${target})`).join('; ');
    lines.push(`| \`${name}\` | ${asks} | ${list(targets)} | ${list(alternative.reads)} | by the guard, in place of the role |`);
  }
  return lines.join('\n');
}

/** docs/permissions.md: the table with what it is and how it is made; a test keeps the file in step. */
export function permissionsDocument(): string {
  return [
    '# Permissions',
    '',
    "*Generated by `npm run permissions:table -- --write` from the guard directives of the areas' `schema.graphql` (`src/domain/<area>/`) and the checks declared in `src/kernel/checks.ts` and the areas' `checks.ts`; do not edit by hand (a test fails when this file is out of date).*",
    '',
    'Every GraphQL root field declares what it needs (a directive in `schema.graphql`); the server refuses',
    'to start if one does not, and the REST operations inherit the checks of the fields they call. Beyond',
    "the role, a directive names checks and alternatives declared in `src/kernel/checks.ts` and the areas' `checks.ts` (the manifests' `checks`)",
    '(listed below); the server refuses to start on a name the registry does not declare for the target,',
    'or whose arguments the field lacks. How roles on content are found: [behaviour/access.md](behaviour/access.md).',
    '',
    'An API token may be limited ([behaviour/tokens.md](behaviour/tokens.md)): to one organization (it then',
    'sees nothing of the others, whatever the field), and to a highest role. The last column is the lowest',
    'cap with which a token of a user who holds the role still passes the guard (named checks judge roles',
    'through the cap too: `canCreateIn` needs a cap of `create`): `read` tokens run no mutation; limited',
    'tokens (one organization, or a cap below `admin`) do no instance administration and change the',
    'account only where the column says so.',
    '',
    permissionTable(),
    '',
    '## Named checks',
    '',
    'A check runs after the role check, in the guard, or inside the writing transaction for a rule on the',
    'state of the target that a check before it would race with (the service calls the declared function).',
    '',
    checkTable(),
    '',
  ].join('\n');
}

export const PERMISSIONS_DOCUMENT = new URL('../docs/permissions.md', import.meta.url);

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--write')) {
    writeFileSync(PERMISSIONS_DOCUMENT, permissionsDocument());
  } else {
    process.stdout.write(permissionTable() + '\n');
  }
}
