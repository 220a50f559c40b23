import { Command, CommanderError, Option } from 'commander';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ROLES, type Role } from './auth/roles.js';
import { systemClock } from './clock.js';
import { databaseOf, loadConfig } from './config.js';
import { migrate, openOrm } from './db/orm.js';
import { addMember, createOrganization } from './domain/organizations/service.js';
import { createApiToken, createUser, findUserByEmail, revokeApiToken } from './domain/users/service.js';
import { DomainError } from './graphql/errors.js';

/**
 * Admin command line: `npm run -s cli -- <command>` (-s keeps npm's banner off stdout). Uses the
 * server's configuration (DATABASE_URL or DATA_DIR), applies pending migrations, and prints only the
 * id or token it made on stdout.
 * Exit codes: 0 done, 1 refused or failed (message on stderr), 2 usage error.
 */

/** Runs `work` in one transaction on the configured database, then prints its result. */
function run<A extends unknown[]>(work: (em: EntityManager, ...args: A) => Promise<string>) {
  return async (...args: A) => {
    const config = loadConfig();
    const orm = await openOrm(databaseOf(config));
    try {
      await migrate(orm);
      const output = await orm.em.fork().transactional((tx) => work(tx as EntityManager, ...args));
      process.stdout.write(`${output}\n`);
    } finally {
      await orm.close();
    }
  };
}

const clock = systemClock;
const program = new Command('npm run -s cli --').description('Administration of the documentation platform server').exitOverride();

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
      process.stderr.write(`created API token ${token.id} ("${token.label}") for ${user.email}\n`);
      return secret;
    }),
  );

program
  .command('token:revoke')
  .description("revoke one of a user's API tokens; prints its id")
  .requiredOption('--email <email>', "the user's e-mail address")
  .requiredOption('--id <tokenId>', 'the token id (see the apiTokens query)')
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
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has already printed the problem (or the help asked for).
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    // A DomainError's message is meant for the caller; configuration and connection errors read well too.
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (!(error instanceof DomainError) && process.env.DEBUG) console.error(error);
    process.exitCode = 1;
  }
}
