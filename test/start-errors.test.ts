import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../src/kernel/config.js';
import { requiredNodeRange, satisfies, unsupportedNodeMessage } from '../src/supported-node.mjs';
import { repoRoot, runNodeProcess } from './support/processes.js';

/**
 * What a start that cannot go on prints: an invalid variable or an unsupported Node.js gets lines that
 * say what to do, exit 1, no stack trace, from the server (`src/main.ts`), the admin CLI and
 * `npm run migrate` alike.
 */
const scratch = mkdtempSync(join(tmpdir(), 'start-errors-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A stack trace's frames, or Node's banner under an uncaught error. */
const STACK = /^\s+at |Node\.js v\d/m;

/** A bad value for each variable that can have one, and the line it gets. */
const REFUSED: Record<string, [value: string, line: string]> = {
  PORT: ['abc', 'PORT: must be a whole number from 0 to 65535, got "abc"'],
  KEEP_ALIVE_TIMEOUT_MS: ['500', 'KEEP_ALIVE_TIMEOUT_MS: must be a whole number from 1000 to 3600000, got "500"'],
  SHUTDOWN_TIMEOUT_MS: ['-1', 'SHUTDOWN_TIMEOUT_MS: must be a whole number from 0 to 600000, got "-1"'],
  DATABASE_URL: [
    'mysql://app:hunter2@db/docs',
    'DATABASE_URL: must be a URL such as postgres://user:password@host:5432/database, got "mysql://[redacted]@db/docs"',
  ],
  DATABASE_REPLICA_URLS: [
    'mysql://replica/docs',
    'DATABASE_REPLICA_URLS: must be comma-separated URLs such as postgres://user:password@replica:5432/database, got "mysql://replica/docs"',
  ],
  REPLICA_MAX_LAG_MS: ['50', 'REPLICA_MAX_LAG_MS: must be a whole number from 100 to 3600000, got "50"'],
  REPLICA_QUERY_TIMEOUT_MS: ['3s', 'REPLICA_QUERY_TIMEOUT_MS: must be a whole number from 100 to 600000, got "3s"'],
  DATABASE_CONNECT_TIMEOUT_MS: ['30s', 'DATABASE_CONNECT_TIMEOUT_MS: must be a whole number from 0 to 3600000, got "30s"'],
  DATABASE_SCHEMA: ['Docs', 'DATABASE_SCHEMA: must be a lowercase SQL identifier: a letter or _, then letters, digits or _, 63 characters at most, got "Docs"'],
  PUBLIC_URL: ['docs.example.com', 'PUBLIC_URL: must be an http or https URL such as https://docs.example.com, got "docs.example.com"'],
  PUBLIC_URL_PREVIOUS: [
    'ftp://old.example.com',
    'PUBLIC_URL_PREVIOUS: must be an http or https URL such as https://docs.example.com, got "ftp://old.example.com"',
  ],
  APP_URL: ['app', 'APP_URL: must be an http or https URL such as https://docs.example.com, got "app"'],
  SECRET_KEY: [
    'hunter2-key',
    'SECRET_KEY: must be 32 or more random bytes in hex or base64 (make one with `openssl rand -base64 32`), got 11 characters (not shown)',
  ],
  SECRET_KEY_PREVIOUS: [
    'hunter2-a,hunter2-b',
    'SECRET_KEY_PREVIOUS: must be comma-separated keys, each of which must be 32 or more random bytes in hex or base64 (make one with `openssl rand -base64 32`), got 19 characters (not shown)',
  ],
  OWNER_EMAIL: ['owner', 'OWNER_EMAIL: must be an e-mail address such as owner@example.com, got "owner"'],
  OWNER_TOKEN: ['hunter2', 'OWNER_TOKEN: must be at least 16 characters, got 7 characters (not shown)'],
  LOG_LEVEL: ['loud', 'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
  CORS_ORIGINS: ['app.example.com', 'CORS_ORIGINS: must be `*` or comma-separated origins such as https://app.example.com, got "app.example.com"'],
  BODY_LIMIT: ['lots', 'BODY_LIMIT: must be a size such as 512kb, 1mb or 10mb, got "lots"'],
  GRAPHQL_MAX_DEPTH: ['100', 'GRAPHQL_MAX_DEPTH: must be a whole number from 2 to 64, got "100"'],
  GRAPHQL_MAX_ALIASES: ['-1', 'GRAPHQL_MAX_ALIASES: must be a whole number, 0 or more, got "-1"'],
  GRAPHQL_MAX_DIRECTIVES: ['many', 'GRAPHQL_MAX_DIRECTIVES: must be a whole number, 0 or more, got "many"'],
  GRAPHQL_MAX_TOKENS: ['99', 'GRAPHQL_MAX_TOKENS: must be a whole number, 100 or more, got "99"'],
  GRAPHQL_MAX_COST: ['1.5', 'GRAPHQL_MAX_COST: must be a whole number, 100 or more, got "1.5"'],
  JOB_POLL_MS: ['often', 'JOB_POLL_MS: must be a whole number, 0 or more, got "often"'],
  JOB_LEASE_MS: ['999', 'JOB_LEASE_MS: must be a whole number from 1000 to 600000, got "999"'],
  INSIGHTS_MAX_BATCH: ['0', 'INSIGHTS_MAX_BATCH: must be a whole number from 1 to 10000, got "0"'],
  INSIGHTS_RETENTION_DAYS: ['forever', 'INSIGHTS_RETENTION_DAYS: must be a whole number from 0 to 36500, got "forever"'],
  AUDIT_RETENTION_DAYS: ['36501', 'AUDIT_RETENTION_DAYS: must be a whole number from 0 to 36500, got "36501"'],
  INSIGHTS_BODY_LIMIT: ['10 MiB', 'INSIGHTS_BODY_LIMIT: must be a size such as 512kb, 1mb or 10mb, got "10 MiB"'],
  INSIGHTS_WORKERS: ['65', 'INSIGHTS_WORKERS: must be a whole number from 0 to 64, got "65"'],
  FETCH_TIMEOUT_MS: ['120001', 'FETCH_TIMEOUT_MS: must be a whole number from 100 to 120000, got "120001"'],
  FETCH_MAX_BYTES: ['1023', 'FETCH_MAX_BYTES: must be a whole number, 1024 or more, got "1023"'],
  FETCH_ALLOW_PRIVATE: ['not a host!', 'FETCH_ALLOW_PRIVATE: must be comma-separated host names, IP addresses or CIDR ranges, got "not a host!"'],
  WEBHOOK_DISABLE_AFTER_FAILURES: ['0', 'WEBHOOK_DISABLE_AFTER_FAILURES: must be a whole number from 1 to 10000, got "0"'],
  WEBHOOK_TIMEOUT_MS: ['99', 'WEBHOOK_TIMEOUT_MS: must be a whole number from 100 to 60000, got "99"'],
  IMPORT_MAX_PAGES: ['501', 'IMPORT_MAX_PAGES: must be a whole number from 1 to 500, got "501"'],
  IMPORT_MAX_DEPTH: ['7', 'IMPORT_MAX_DEPTH: must be a whole number from 0 to 6, got "7"'],
  IMPORT_MAX_BYTES: ['1k', 'IMPORT_MAX_BYTES: must be a whole number, 1024 or more, got "1k"'],
  IMPORT_TIMEOUT_MS: ['50', 'IMPORT_TIMEOUT_MS: must be a whole number, 100 or more, got "50"'],
  METRICS_TOKEN: ['hunter2', 'METRICS_TOKEN: must be at least 16 characters, got 7 characters (not shown)'],
  METRICS_PORT: ['65536', 'METRICS_PORT: must be a whole number from 0 to 65535, got "65536"'],
  RATE_LIMIT_READS: ['unlimited', 'RATE_LIMIT_READS: must be a whole number, 0 or more, got "unlimited"'],
  RATE_LIMIT_WRITES: ['-5', 'RATE_LIMIT_WRITES: must be a whole number, 0 or more, got "-5"'],
  RATE_LIMIT_INSIGHTS: ['1.5', 'RATE_LIMIT_INSIGHTS: must be a whole number, 0 or more, got "1.5"'],
  RATE_LIMIT_WINDOW_S: ['0', 'RATE_LIMIT_WINDOW_S: must be a whole number from 1 to 86400, got "0"'],
  TRUST_PROXY: [
    'sometimes',
    'TRUST_PROXY: must be true, false, a hop count, or comma-separated addresses, CIDR ranges, loopback, linklocal, uniquelocal, got "sometimes"',
  ],
};
/** Variables any text is good for (a host name, a directory): they have no bad value. */
const FREE_TEXT = ['HOST', 'DATA_DIR', 'METRICS_HOST'];

/** The lines of the ConfigError that `env` gets. */
function refusal(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.lines;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has a bad value and its line for every variable that can be wrong', () => {
    expect([...Object.keys(REFUSED), ...FREE_TEXT].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it.each(Object.entries(REFUSED))('refuses a bad %s with one line in words, secrets and passwords not shown', (variable, [value, line]) => {
    expect(refusal({ [variable]: value })).toEqual([line]);
    expect(line).not.toMatch(/Invalid input|expected|received|hunter2/);
  });

  it('gives one line per bad variable, in the order of the configuration, and none for the good ones', () => {
    const env = { LOG_LEVEL: 'loud', PORT: 'abc', HOST: 'localhost', GRAPHQL_MAX_DEPTH: '1.5', JOB_POLL_MS: '100' };
    expect(refusal(env)).toEqual([
      'PORT: must be a whole number from 0 to 65535, got "abc"',
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
      'GRAPHQL_MAX_DEPTH: must be a whole number from 2 to 64, got "1.5"',
    ]);
  });

  it('says which variable a PUBLIC_URL_PREVIOUS needs', () => {
    expect(refusal({ PUBLIC_URL_PREVIOUS: 'https://old.example.com' })).toEqual(['PUBLIC_URL_PREVIOUS: needs PUBLIC_URL, the value to record instead']);
  });

  it('takes the good values of the same kinds', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgresql://app:secret@db.internal:5432/docs',
      PUBLIC_URL: 'https://docs.example.com/',
      BODY_LIMIT: '512kb',
      INSIGHTS_BODY_LIMIT: '1048576',
      LOG_LEVEL: 'debug',
      OWNER_TOKEN: 'a-token-of-16-chars',
    });
    expect(config).toMatchObject({ port: 8080, publicUrl: 'https://docs.example.com', bodyLimit: '512kb', insightsBodyLimit: '1048576', logLevel: 'debug' });
  });
});

describe('an invalid configuration at start', () => {
  const env = { DATA_DIR: join(scratch, 'data'), LOG_LEVEL: 'info' };

  it('server: a line per bad variable on stderr, exit 1, no stack trace, nothing started', async () => {
    const { code, stdout, stderr } = await runNodeProcess(['--import', 'tsx', 'src/main.ts'], { ...env, PORT: 'abc', LOG_LEVEL: 'loud' });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'error: PORT: must be a whole number from 0 to 65535, got "abc"',
      'error: LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ]);
    expect(stderr).not.toMatch(STACK);
    expect(stdout).toBe('');
    expect(existsSync(env.DATA_DIR)).toBe(false);
  });

  it('server: a short SECRET_KEY beside DATABASE_URL is refused without showing either secret', async () => {
    const { code, stdout, stderr } = await runNodeProcess(['--import', 'tsx', 'src/main.ts'], {
      ...env,
      SECRET_KEY: 'hunter2-key',
      DATABASE_URL: 'postgres://app:hunter2@127.0.0.1:1/docs',
    });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'error: SECRET_KEY: must be 32 or more random bytes in hex or base64 (make one with `openssl rand -base64 32`), got 11 characters (not shown)',
    ]);
    expect(stdout + stderr).not.toContain('hunter2');
  });

  it('admin CLI and migrate: the same lines, exit 1, no stack trace', async () => {
    for (const nodeArgs of [
      ['--import', 'tsx', 'src/cli.ts', 'user:create', '--email', 'someone@example.com', '--name', 'Someone'],
      ['--import', 'tsx', 'src/migrate.ts'],
    ]) {
      const { code, stdout, stderr } = await runNodeProcess(nodeArgs, { ...env, PORT: '70000', OWNER_EMAIL: 'nobody' });
      expect({ nodeArgs, code, stdout, lines: stderr.trim().split('\n') }).toEqual({
        nodeArgs,
        code: 1,
        stdout: '',
        lines: [
          'error: PORT: must be a whole number from 0 to 65535, got "70000"',
          'error: OWNER_EMAIL: must be an e-mail address such as owner@example.com, got "nobody"',
        ],
      });
    }
  });
});

describe('the Node.js version', () => {
  const range = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).engines.node as string;

  it("is checked against package.json's engines", () => {
    expect(requiredNodeRange()).toBe(range);
    expect(satisfies(process.versions.node, range)).toBe(true);
    expect(satisfies('20.20.2', range)).toBe(false);
    expect(unsupportedNodeMessage('20.20.2', range)).toBe(
      `error: Node.js v20.20.2 is not supported: this server needs Node.js ${range} (package.json "engines"); install Node.js 24 LTS (.nvmrc)`,
    );
    expect(unsupportedNodeMessage(process.versions.node, range)).toBeNull();
  });

  it('reads the range forms engines fields use, and refuses others', () => {
    expect(['22.16.9', '22.17.0', '22.18.1', '24.0.0'].map((version) => satisfies(version, '>=22.17'))).toEqual([false, true, true, true]);
    expect(['20.18.0', '20.19.0', '21.0.0', '22.11.0', '22.12.0', '25.1.0'].map((version) => satisfies(version, '^20.19.0 || >=22.12'))).toEqual([
      false,
      true,
      false,
      false,
      true,
      true,
    ]);
    expect(['21.9.0', '22.0.0', '23.0.0'].map((version) => satisfies(version, '>=22 <23'))).toEqual([false, true, false]);
    expect(() => satisfies('24.0.0', '~22.17')).toThrow(/cannot read the Node\.js range "~22\.17"/);
  });

  /** The machine's own node when package.json's engines does not allow it (Debian's Node 20), as the user of the issue had. */
  const oldNode = process.env.OLD_NODE ?? '/usr/bin/node';
  const oldVersion = existsSync(oldNode) ? execFileSync(oldNode, ['--version'], { encoding: 'utf8' }).trim() : undefined;

  it.runIf(oldVersion && !satisfies(oldVersion, range))(
    `refuses ${oldVersion} in one line before anything loads: server, npm start's launcher, CLI`,
    async () => {
      for (const nodeArgs of [['--import', 'tsx', 'src/main.ts'], ['scripts/start.mjs'], ['--import', 'tsx', 'src/cli.ts', '--help']]) {
        const { code, stdout, stderr } = await runNodeProcess(nodeArgs, { DATA_DIR: join(scratch, 'old-node') }, oldNode);
        expect({ nodeArgs, code, stdout, stderr }).toEqual({ nodeArgs, code: 1, stdout: '', stderr: `${unsupportedNodeMessage(oldVersion!, range)}\n` });
      }
      expect(existsSync(join(scratch, 'old-node'))).toBe(false);
    },
  );
});
