import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ROLES } from '../kernel/roles.js';
import { loadConfig } from '../kernel/config.js';
import { DataDirectoryLocked } from '../db/data-dir-lock.js';
import { DomainError } from '../kernel/errors.js';
import type { Executor, OpenDatabase } from './executors.js';
import type { CliIo } from './io.js';
import { serverAccess, serverHolding } from './server-access.js';

/** A command's GraphQL operation (one of the instance-admin mutations) and what it prints. */
type Operation<O> = {
  document: string;
  variables(options: O): Record<string, unknown>;
  /** The line printed on stdout (only what was made: an id or a secret); may say more on stderr. */
  output(data: any, options: O, io: CliIo): string;
};

/**
 * The executor for this run. A PostgreSQL server is opened directly. An embedded data directory is
 * opened directly when no process holds it; when a server holds it, the command goes through that
 * server's GraphQL door with an instance administrator's token.
 */
async function executorFor(io: CliIo, openDatabase: OpenDatabase): Promise<Executor> {
  const config = loadConfig(io.env);
  // Loaded when needed: commands that do not run GraphQL operations (backup, restore, help) start faster.
  const { throughServer } = await import('./executors.js');
  try {
    return await openDatabase(config);
  } catch (error) {
    if (!(error instanceof DataDirectoryLocked)) throw error;
    return throughServer(serverAccess(serverHolding(error), config.dataDir, io.env));
  }
}

type TokenOptions = { email: string; label: string; organization?: string; role?: string; expiresAt?: string; expiresIn?: number };

/** A whole number of an option, or a usage error. */
function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number of seconds');
  return Number(value);
}

type CreatedToken = { id: string; label: string; token: string; organization: string | null; role: string | null; expiresAt: string | null };

/** How the CLI describes a token's scope. */
function scopeText(token: CreatedToken): string {
  return [
    token.organization ? `limited to organization ${token.organization}` : 'in all of its organizations',
    token.role && token.role !== 'admin' ? `capped at ${token.role}` : 'uncapped',
    token.expiresAt ? `expires ${token.expiresAt}` : 'never expires',
  ].join(', ');
}

/**
 * Runs the admin command line: `npm run -s cli -- <command>` (-s keeps npm's banner off stdout). It uses
 * the server's configuration (DATABASE_URL or DATA_DIR): a database it opens itself (applying pending
 * migrations), or the running server that holds the embedded data directory. It prints only the id or
 * token it made on stdout. Resolves to the exit code: 0 done, 1 refused or failed (message on stderr),
 * 2 usage error.
 */
export async function runCli(argv: string[], io: CliIo, openDatabase: OpenDatabase): Promise<number> {
  const run =
    <O>(operation: Operation<O>) =>
    async (options: O) => {
      const executor = await executorFor(io, openDatabase);
      try {
        const data = await executor.execute(operation.document, operation.variables(options));
        io.stdout.write(`${operation.output(data, options, io)}\n`);
      } finally {
        await executor.close();
      }
    };

  const program = new Command('npm run -s cli --')
    .description('Administration of the documentation platform server')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });

  program
    .command('user:create')
    .description('create a user; prints its id')
    .requiredOption('--email <email>', 'e-mail address (unique)')
    .requiredOption('--name <displayName>', 'display name')
    .option('--instance-admin', 'make the user an instance administrator too')
    .action(
      run<{ email: string; name: string; instanceAdmin?: boolean }>({
        document: 'mutation($input: AdminCreateUserInput!) { adminCreateUser(input: $input) { id } }',
        variables: (o) => ({ input: { email: o.email, displayName: o.name, instanceAdmin: !!o.instanceAdmin } }),
        output: (data) => data.adminCreateUser.id,
      }),
    );

  program
    .command('user:admin')
    .description('make a user an instance administrator (or, with --revoke, no longer one); prints the user id')
    .requiredOption('--email <email>', "the user's e-mail address")
    .option('--revoke', 'take the role back')
    .action(
      run<{ email: string; revoke?: boolean }>({
        document: 'mutation($user: String!, $admin: Boolean!) { adminSetInstanceAdmin(user: $user, instanceAdmin: $admin) { id } }',
        variables: (o) => ({ user: o.email, admin: !o.revoke }),
        output: (data) => data.adminSetInstanceAdmin.id,
      }),
    );

  program
    .command('token:create')
    .description('issue an API token for a user; prints the secret, which cannot be shown again')
    .requiredOption('--email <email>', "the user's e-mail address")
    .option('--label <label>', 'what the token is for', 'cli')
    .option('--organization <id>', 'limit the token to this organization (the user must be a member)')
    .option('--role <role>', `cap the token at this role (${ROLES.join(', ')}; read never writes, admin is no cap)`)
    .option('--expires-at <date-time>', 'the token stops working then (ISO 8601, in the future)')
    .option('--expires-in <seconds>', 'the token stops working this many seconds from now', wholeNumber)
    .action(
      run<TokenOptions>({
        document: `mutation($input: AdminCreateApiTokenInput!) { adminCreateApiToken(input: $input) { id label token organization role expiresAt } }`,
        variables: (o) => ({
          input: {
            user: o.email,
            label: o.label,
            scope: { organization: o.organization, role: o.role, expiresAt: o.expiresAt, expiresIn: o.expiresIn },
          },
        }),
        output: ({ adminCreateApiToken: token }: { adminCreateApiToken: CreatedToken }, o, { stderr }) => {
          stderr.write(`created API token ${token.id} ("${token.label}") for ${o.email.trim().toLowerCase()}, ${scopeText(token)}\n`);
          return token.token;
        },
      }),
    );

  program
    .command('token:revoke')
    .description("revoke one of a user's API tokens; prints its id")
    .requiredOption('--email <email>', "the user's e-mail address")
    .requiredOption('--id <tokenId>', 'the token id (printed by token:create, or the apiTokens query)')
    .action(
      run<{ email: string; id: string }>({
        document: 'mutation($user: String!, $id: ID!) { adminRevokeApiToken(user: $user, tokenId: $id) }',
        variables: (o) => ({ user: o.email, id: o.id }),
        output: (_data, o) => o.id,
      }),
    );

  program
    .command('org:create')
    .description('create an organization whose admin is the owner; prints its id')
    .requiredOption('--title <title>', 'organization title')
    .requiredOption('--owner <email>', "the owner's e-mail address")
    .action(
      run<{ title: string; owner: string }>({
        document: 'mutation($input: AdminCreateOrganizationInput!) { adminCreateOrganization(input: $input) { id } }',
        variables: (o) => ({ input: { title: o.title, owner: o.owner } }),
        output: (data) => data.adminCreateOrganization.id,
      }),
    );

  program
    .command('member:add')
    .description("add a user to an organization, or change a member's role; prints the user id")
    .requiredOption('--org <organizationId>', 'organization id')
    .requiredOption('--email <email>', "the user's e-mail address")
    .addOption(new Option('--role <role>', 'membership role').choices([...ROLES, 'guest']).makeOptionMandatory())
    .action(
      run<{ org: string; email: string; role: string }>({
        document: 'mutation($org: ID!, $input: AdminSetMemberInput!) { adminSetMember(organizationId: $org, input: $input) { id } }',
        variables: (o) => ({ org: o.org, input: { user: o.email, role: o.role === 'guest' ? null : o.role } }),
        output: (data) => data.adminSetMember.id,
      }),
    );

  program
    .command('backup')
    .description('back up the embedded database (DATA_DIR) into a file, through the server that holds it if one does; prints the file')
    .argument('<file>', 'the backup file to write (a .tar.gz)')
    .action(async (file: string) => (await import('./backup.js')).backupCommand(file, io));

  program
    .command('restore')
    .description('restore a backup into a new data directory (absent or empty); prints the directory')
    .argument('<file>', 'the backup file')
    .argument('<dataDir>', 'the new data directory')
    .option('--key-file <path>', "the backed-up directory's secret.key, copied into the new one (not needed with SECRET_KEY)")
    .action(async (file: string, dir: string, options: { keyFile?: string }) => (await import('./restore.js')).restoreCommand(file, dir, options, io));

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has already printed a usage problem (or the help asked for).
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    // A DomainError's message is meant for the caller; configuration (a line per variable) and connection errors read well too.
    for (const line of (error instanceof Error ? error.message : String(error)).split('\n')) io.stderr.write(`error: ${line}\n`);
    if (!(error instanceof DomainError) && io.env.DEBUG) io.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
    return 1;
  }
}
