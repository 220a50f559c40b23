import { Command, CommanderError, Option } from 'commander';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ROLES, type Role } from '../auth/roles.js';
import { systemClock } from '../clock.js';
import { databaseOf, loadConfig } from '../config.js';
import { migrate, openOrm } from '../db/orm.js';
import { addMember, createOrganization } from '../domain/organizations/service.js';
import { createApiToken, createUser, findUserByEmail, revokeApiToken } from '../domain/users/service.js';
import { DomainError } from '../graphql/errors.js';

/** Where a command line run reads its configuration and writes its output. */
export type CliIo = {
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
};

const clock = systemClock;

/**
 * Runs the admin command line: `npm run -s cli -- <command>` (-s keeps npm's banner off stdout). It uses
 * the server's configuration (DATABASE_URL or DATA_DIR), applies pending migrations, and prints only
 * the id or token it made on stdout. Resolves to the exit code: 0 done, 1 refused or failed (message
 * on stderr), 2 usage error.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  /** Runs `work` in one transaction on the configured database, then prints its result. */
  const run =
    <O>(work: (em: EntityManager, options: O) => Promise<string>) =>
    async (options: O) => {
      const config = loadConfig(io.env);
      const orm = await openOrm(databaseOf(config));
      try {
        await migrate(orm);
        const output = await orm.em.fork().transactional((tx) => work(tx as EntityManager, options));
        io.stdout.write(`${output}\n`);
      } finally {
        await orm.close();
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
    .action(
      run(async (em, opts: { email: string; name: string }) => {
        const user = await createUser(em, clock, { email: opts.email, displayName: opts.name });
        return user.id;
      }),
    );

  program
    .command('token:create')
    .description('issue an API token for a user; prints the secret, which cannot be shown again')
    .requiredOption('--email <email>', "the user's e-mail address")
    .option('--label <label>', 'what the token is for', 'cli')
    .action(
      run(async (em, opts: { email: string; label: string }) => {
        const user = await findUserByEmail(em, opts.email);
        const { token, secret } = await createApiToken(em, clock, user.id, opts.label);
        io.stderr.write(`created API token ${token.id} ("${token.label}") for ${user.email}\n`);
        return secret;
      }),
    );

  program
    .command('token:revoke')
    .description("revoke one of a user's API tokens; prints its id")
    .requiredOption('--email <email>', "the user's e-mail address")
    .requiredOption('--id <tokenId>', 'the token id (printed by token:create, or the apiTokens query)')
    .action(
      run(async (em, opts: { email: string; id: string }) => {
        const user = await findUserByEmail(em, opts.email);
        await revokeApiToken(em, clock, user.id, opts.id);
        return opts.id;
      }),
    );

  program
    .command('org:create')
    .description('create an organization whose admin is the owner; prints its id')
    .requiredOption('--title <title>', 'organization title')
    .requiredOption('--owner <email>', "the owner's e-mail address")
    .action(
      run(async (em, opts: { title: string; owner: string }) => {
        const owner = await findUserByEmail(em, opts.owner);
        const organization = await createOrganization(em, clock, owner.id, { title: opts.title });
        return organization.id;
      }),
    );

  program
    .command('member:add')
    .description("add a user to an organization, or change a member's role; prints the user id")
    .requiredOption('--org <organizationId>', 'organization id')
    .requiredOption('--email <email>', "the user's e-mail address")
    .addOption(new Option('--role <role>', 'membership role').choices([...ROLES, 'guest']).makeOptionMandatory())
    .action(
      run(async (em, opts: { org: string; email: string; role: Role | 'guest' }) => {
        const user = await findUserByEmail(em, opts.email);
        await addMember(em, clock, opts.org, user.id, opts.role === 'guest' ? null : opts.role);
        return user.id;
      }),
    );

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has already printed a usage problem (or the help asked for).
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    // A DomainError's message is meant for the caller; configuration and connection errors read well too.
    io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (!(error instanceof DomainError) && io.env.DEBUG) io.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
    return 1;
  }
}
