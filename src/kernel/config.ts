import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { isMasterKeyText, KEY_FORMAT } from './key-text.js';
import { parseAllowEntry } from './addresses.js';
import { parseTrustProxy, TRUST_PROXY_FORMAT, type TrustProxy } from './trust-proxy.js';
import { REDACTED } from './url-redaction.js';

const listOf = (value: string) =>
  value
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
const keysOf = (value: string) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
const isPostgresUrl = (value: string) => {
  try {
    return /^postgres(ql)?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
};
/** An origin as browsers send it: scheme, host and port, no path. */
const isOrigin = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, '').toLowerCase();
  } catch {
    return false;
  }
};

/*
 * Each rule carries the words an operator reads when a value breaks it (`PORT: must be a whole number
 * from 0 to 65535, got "abc"`): every check of a variable says the same thing, what a good value is.
 */

/** A whole number from `min` (up to `max`), given as text. */
const wholeNumber = (min: number, max?: number) => {
  const error = max === undefined ? `must be a whole number, ${min} or more` : `must be a whole number from ${min} to ${max}`;
  const atLeast = z.coerce.number({ error }).int({ error }).min(min, { error });
  return max === undefined ? atLeast : atLeast.max(max, { error });
};
const oneOf = <const Values extends readonly [string, ...string[]]>(values: Values) => z.enum(values, { error: `must be one of ${values.join(', ')}` });
const httpUrl = () => z.url({ protocol: /^https?$/, error: 'must be an http or https URL such as https://docs.example.com' });
/** A body size as express reads it (`bytes`): a number of bytes, or a number with kb, mb or gb. */
const bodySize = () => z.string().regex(/^(\d+|\d+(\.\d+)? *(kb|mb|gb))$/i, { error: 'must be a size such as 512kb, 1mb or 10mb' });
const secretText = (minLength: number) => z.string().min(minLength, { error: `must be at least ${minLength} characters` });

const EnvSchema = z.object({
  PORT: wholeNumber(0, 65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /**
   * How long an idle keep-alive connection stays open: above load balancers' idle timeouts (AWS ALB:
   * 60 s), so that the balancer, not this server, closes a connection it may be reusing.
   */
  KEEP_ALIVE_TIMEOUT_MS: wholeNumber(1000, 3_600_000).default(65_000),
  /** On SIGTERM/SIGINT, how long in-flight requests and a running job cycle may take to finish. */
  SHUTDOWN_TIMEOUT_MS: wholeNumber(0, 600_000).default(10_000),
  /** Embedded PostgreSQL (PGlite) data directory, used when DATABASE_URL is not set. */
  DATA_DIR: z.string().default('./data'),
  /** postgres://user:pass@host:port/db — a real PostgreSQL server instead of the embedded one. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a URL such as postgres://user:password@host:5432/database' }).optional(),
  /**
   * How long a start waits for an unreachable DATABASE_URL server (refused, unknown host, starting up),
   * retrying with backoff, before it exits 1; 0: one attempt. Wrong credentials or an unknown database
   * are never retried.
   */
  DATABASE_CONNECT_TIMEOUT_MS: wholeNumber(0, 3_600_000).default(30_000),
  /**
   * Streaming replicas of DATABASE_URL's server, comma-separated postgres:// URLs (same database and
   * schema, credentials as in DATABASE_URL): reads that answer clients go to one once it is safe
   * (docs/scaling.md). Not with the embedded database, which has no replicas.
   */
  DATABASE_REPLICA_URLS: z
    .string()
    .default('')
    .refine((list) => keysOf(list).every(isPostgresUrl), { error: 'must be comma-separated URLs such as postgres://user:password@replica:5432/database' }),
  /** A replica whose replay is this far behind the primary leaves the rotation until it catches up. */
  REPLICA_MAX_LAG_MS: wholeNumber(100, 3_600_000).default(5000),
  /**
   * A read on a replica unanswered this long is abandoned (its connection destroyed) and asked of the
   * primary, and the replica leaves the rotation: a stopped replica or a network black hole costs a
   * request this much, not TCP's minutes.
   */
  REPLICA_QUERY_TIMEOUT_MS: wholeNumber(100, 600_000).default(3000),
  /** Schema of that server to use (created beforehand); `public` by default. */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, { error: 'must be a lowercase SQL identifier: a letter or _, then letters, digits or _, 63 characters at most' })
    .optional(),
  /**
   * Base URL under which this server is reachable; every `urls` field is built from it. Recorded in the
   * database by the first start that sets it: an instance with another value refuses to start.
   */
  PUBLIC_URL: httpUrl().optional(),
  /** The recorded PUBLIC_URL that this start replaces with PUBLIC_URL, on purpose (src/instances/agreement.ts). */
  PUBLIC_URL_PREVIOUS: httpUrl().optional(),
  /** Base URL of the web application that `urls.app` links point into (defaults to PUBLIC_URL). */
  APP_URL: httpUrl().optional(),
  /**
   * Master key sealing the server secrets stored in the database (src/auth/master-key.ts): 32 or more
   * random bytes, hex or base64. Required with DATABASE_URL; embedded, DATA_DIR/secret.key otherwise.
   */
  SECRET_KEY: z.string().refine(isMasterKeyText, { error: KEY_FORMAT }).optional(),
  /** Former master keys, comma-separated: values sealed with one are re-sealed with SECRET_KEY at start. */
  SECRET_KEY_PREVIOUS: z
    .string()
    .default('')
    .refine((list) => keysOf(list).every(isMasterKeyText), { error: `must be comma-separated keys, each of which ${KEY_FORMAT}` }),
  OWNER_EMAIL: z.email({ error: 'must be an e-mail address such as owner@example.com' }).default('owner@example.com'),
  OWNER_TOKEN: secretText(16).optional(),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Browser origins allowed to call both doors (CORS), comma-separated exact origins
   * (`https://app.example.com`), or `*` for any; unset: no CORS headers at all.
   */
  CORS_ORIGINS: z
    .string()
    .default('')
    .refine((list) => list.trim() === '*' || keysOf(list).every(isOrigin), { error: 'must be `*` or comma-separated origins such as https://app.example.com' }),
  /** Largest accepted request body. */
  BODY_LIMIT: bodySize().default('1mb'),
  /**
   * Limits of a GraphQL document sent to /graphql (the REST door's own documents stay far below them):
   * depth of its selections (fragments counted where they are spread), aliases, directives, tokens (the
   * parser stops counting there, before it builds anything), and cost — about how many values the answer
   * may hold, each list counted at its `limit` (50 when not given).
   */
  GRAPHQL_MAX_DEPTH: wholeNumber(2, 64).default(20),
  GRAPHQL_MAX_ALIASES: wholeNumber(0).default(50),
  GRAPHQL_MAX_DIRECTIVES: wholeNumber(0).default(50),
  GRAPHQL_MAX_TOKENS: wholeNumber(100).default(5000),
  GRAPHQL_MAX_COST: wholeNumber(100).default(2_000_000),
  /** How often the durable job worker looks for due jobs; 0 disables the worker. */
  JOB_POLL_MS: wholeNumber(0).default(5000),
  /**
   * A claimed job's lease, renewed every third of it while the job runs: a job of an instance that died
   * is taken over by another within JOB_LEASE_MS + JOB_POLL_MS.
   */
  JOB_LEASE_MS: wholeNumber(1000, 600_000).default(30_000),
  /** Most insights events accepted in one ingestion request; more is answered 413. */
  INSIGHTS_MAX_BATCH: wholeNumber(1, 10000).default(5000),
  /**
   * Days raw insights events are kept (0: forever); older ones are purged by an hourly job, while the
   * rollups keep their counts. By default 366: the longest preset range (lastYear) reads raw rows in full.
   */
  INSIGHTS_RETENTION_DAYS: wholeNumber(0, 36_500).default(366),
  /**
   * Days the audit log keeps domain events (0: forever). An hourly job deletes older ones, but never an
   * event not yet handed to webhooks.
   */
  AUDIT_RETENTION_DAYS: wholeNumber(0, 36_500).default(365),
  /** Largest ingestion request body (BODY_LIMIT is for every other body): room for a largest batch. */
  INSIGHTS_BODY_LIMIT: bodySize().default('10mb'),
  /**
   * Worker threads that parse, check and encode ingestion request bodies, off the thread that serves
   * every request (0: that thread does it). By default one fewer than the cores, from 1 to 4.
   */
  INSIGHTS_WORKERS: wholeNumber(0, 64).default(Math.max(1, Math.min(4, availableParallelism() - 1))),
  /**
   * Longest wait for a fetched document (an OpenAPI spec URL), connection to last byte; at most two
   * minutes. A job's lease is renewed while it fetches.
   */
  FETCH_TIMEOUT_MS: wholeNumber(100, 120_000).default(15_000),
  /** Largest fetched document, in bytes. */
  FETCH_MAX_BYTES: wholeNumber(1024).default(10 * 1024 * 1024),
  /**
   * Hosts, IP addresses and CIDR ranges that fetches may reach although they are private, loopback or
   * link-local (comma-separated); every other such address is refused after DNS resolution.
   */
  FETCH_ALLOW_PRIVATE: z
    .string()
    .default('')
    .refine((list) => listOf(list).every((entry) => parseAllowEntry(entry) !== null), {
      error: 'must be comma-separated host names, IP addresses or CIDR ranges',
    }),
  /**
   * Webhooks: an endpoint is disabled (and an admin told through a webhook.updated event) after this
   * many consecutive failed delivery attempts.
   */
  WEBHOOK_DISABLE_AFTER_FAILURES: wholeNumber(1, 10_000).default(20),
  /** Webhooks: longest wait for a receiver's answer to one delivery attempt. */
  WEBHOOK_TIMEOUT_MS: wholeNumber(100, 60_000).default(10_000),
  /** Website import: most pages fetched per import. */
  IMPORT_MAX_PAGES: wholeNumber(1, 500).default(25),
  /** Website import: how many links deep from the first page (0: that page only). */
  IMPORT_MAX_DEPTH: wholeNumber(0, 6).default(2),
  /** Website import: largest page accepted, in bytes; larger pages are skipped. */
  IMPORT_MAX_BYTES: wholeNumber(1024).default(2_000_000),
  /** Website import: time for the whole import, in milliseconds. */
  IMPORT_TIMEOUT_MS: wholeNumber(100).default(30_000),
  /** Bearer token that `/metrics` requires (on the main port, and on METRICS_PORT when set). */
  METRICS_TOKEN: secretText(16).optional(),
  /** A port of its own for `/metrics` (0: chosen by the system); the main port then does not serve it. */
  METRICS_PORT: wholeNumber(0, 65535).optional(),
  /** Where METRICS_PORT listens: loopback unless the scraper is elsewhere. */
  METRICS_HOST: z.string().default('127.0.0.1'),
  /**
   * Requests one API token (or, without a valid token, one client address) may make per
   * RATE_LIMIT_WINDOW_S, by class; 0 turns a class's limit off. Generous: a busy integration, not a
   * person, reaches them (docs/behaviour/rate-limits.md).
   */
  RATE_LIMIT_READS: wholeNumber(0).default(1200),
  RATE_LIMIT_WRITES: wholeNumber(0).default(300),
  RATE_LIMIT_INSIGHTS: wholeNumber(0).default(600),
  RATE_LIMIT_WINDOW_S: wholeNumber(1, 86_400).default(60),
  /**
   * Which peers' X-Forwarded-For is believed for the client address (express's `trust proxy`): `true`,
   * `false`, a hop count, or comma-separated addresses, CIDR ranges and `loopback`, `linklocal`,
   * `uniquelocal`. Only a proxy on this machine by default: others could forge the address.
   */
  TRUST_PROXY: z
    .string()
    .default('loopback')
    .refine((value) => parseTrustProxy(value) !== null, { error: TRUST_PROXY_FORMAT }),
});

/** The variables the configuration reads. */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape);

import type { Database } from './database.js';

export type Config = {
  port: number;
  host: string;
  keepAliveTimeoutMs: number;
  shutdownTimeoutMs: number;
  dataDir: string;
  databaseUrl?: string;
  databaseSchema?: string;
  databaseConnectTimeoutMs: number;
  /** Streaming replicas of the server, and the lag past which one leaves the rotation (docs/scaling.md). */
  databaseReplicas: { urls: string[]; maxLagMs: number; queryTimeoutMs: number };
  publicUrl: string;
  /** Whether PUBLIC_URL was set (publicUrl is otherwise this machine's local default). */
  publicUrlConfigured: boolean;
  publicUrlPrevious?: string;
  appUrl: string;
  /** The master key's text (SECRET_KEY) and former ones; see src/auth/master-key.ts. */
  secretKey?: string;
  previousSecretKeys: string[];
  ownerEmail: string;
  ownerToken?: string;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** Origins allowed by CORS: `'*'` for any, else the exact origins (none: CORS is off). */
  corsOrigins: '*' | string[];
  bodyLimit: string;
  graphql: { maxDepth: number; maxAliases: number; maxDirectives: number; maxTokens: number; maxCost: number };
  jobPollMs: number;
  jobLeaseMs: number;
  insightsMaxBatch: number;
  insightsBodyLimit: string;
  insightsWorkers: number;
  insightsRetentionDays: number;
  auditRetentionDays: number;
  fetch: FetchConfig;
  websiteImport: { maxPages: number; maxDepth: number; maxBytes: number; timeoutMs: number };
  webhooks: { disableAfterFailures: number; timeoutMs: number };
  metrics: MetricsConfig;
  rateLimits: RateLimitConfig;
  trustProxy: TrustProxy;
};

/** Who may read `/metrics`, and where (src/metrics/endpoint.ts). */
export type MetricsConfig = { token?: string; port?: number; host: string };

/** Requests per window, by class (0: unlimited), and the window's length. */
export type RateLimitConfig = { reads: number; writes: number; insights: number; windowS: number };

/** How the server fetches documents from URLs given by callers. */
export type FetchConfig = { timeoutMs: number; maxBytes: number; allowPrivate: string[] };

/**
 * The environment does not make a configuration: one line per bad variable (`PORT: must be a whole
 * number from 0 to 65535, got "abc"`), which the entry points print instead of a stack.
 */
export class ConfigError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
  }
}

/** Variables whose value a message never shows. */
const SECRET_VARIABLES = new Set(['SECRET_KEY', 'SECRET_KEY_PREVIOUS', 'OWNER_TOKEN', 'METRICS_TOKEN']);

/** A refused value as a message shows it: a secret by its length only, a URL without its user info (a password). */
function shown(variable: string, value: string): string {
  if (SECRET_VARIABLES.has(variable)) return `${value.length} characters (not shown)`;
  return JSON.stringify(value.replace(/^([a-z][a-z0-9+.-]*:\/\/).*@/is, `$1${REDACTED}@`));
}

/** Reads and validates the environment; throws a ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means unset: `DATA_DIR=` must not put the database in the working directory.
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== '')) as Record<string, string>;
  const parsed = EnvSchema.safeParse(set);
  if (!parsed.success) {
    // A variable can break several checks, which all say the same: its first issue is its line.
    const refused = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const variable = String(issue.path[0]);
      const value = set[variable];
      if (!refused.has(variable)) refused.set(variable, `${variable}: ${issue.message}${value === undefined ? '' : `, got ${shown(variable, value)}`}`);
    }
    throw new ConfigError([...refused.values()]);
  }
  const e = parsed.data;
  if (e.DATABASE_REPLICA_URLS.trim() && !e.DATABASE_URL) {
    throw new ConfigError(['DATABASE_REPLICA_URLS: needs DATABASE_URL (the embedded database has no replicas)']);
  }
  if (e.PUBLIC_URL_PREVIOUS && !e.PUBLIC_URL) throw new ConfigError(['PUBLIC_URL_PREVIOUS: needs PUBLIC_URL, the value to record instead']);
  return {
    port: e.PORT,
    host: e.HOST,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    databaseReplicas: { urls: keysOf(e.DATABASE_REPLICA_URLS), maxLagMs: e.REPLICA_MAX_LAG_MS, queryTimeoutMs: e.REPLICA_QUERY_TIMEOUT_MS },
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    publicUrlConfigured: e.PUBLIC_URL !== undefined,
    publicUrlPrevious: e.PUBLIC_URL_PREVIOUS,
    appUrl: (e.APP_URL ?? e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    secretKey: e.SECRET_KEY,
    previousSecretKeys: keysOf(e.SECRET_KEY_PREVIOUS),
    ownerEmail: e.OWNER_EMAIL,
    ownerToken: e.OWNER_TOKEN,
    logLevel: e.LOG_LEVEL,
    corsOrigins: e.CORS_ORIGINS.trim() === '*' ? '*' : keysOf(e.CORS_ORIGINS).map((origin) => new URL(origin).origin),
    bodyLimit: e.BODY_LIMIT,
    graphql: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxDirectives: e.GRAPHQL_MAX_DIRECTIVES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxCost: e.GRAPHQL_MAX_COST,
    },
    jobPollMs: e.JOB_POLL_MS,
    jobLeaseMs: e.JOB_LEASE_MS,
    insightsMaxBatch: e.INSIGHTS_MAX_BATCH,
    insightsBodyLimit: e.INSIGHTS_BODY_LIMIT,
    insightsWorkers: e.INSIGHTS_WORKERS,
    insightsRetentionDays: e.INSIGHTS_RETENTION_DAYS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    fetch: {
      timeoutMs: e.FETCH_TIMEOUT_MS,
      maxBytes: e.FETCH_MAX_BYTES,
      allowPrivate: listOf(e.FETCH_ALLOW_PRIVATE),
    },
    websiteImport: {
      maxPages: e.IMPORT_MAX_PAGES,
      maxDepth: e.IMPORT_MAX_DEPTH,
      maxBytes: e.IMPORT_MAX_BYTES,
      timeoutMs: e.IMPORT_TIMEOUT_MS,
    },
    webhooks: { disableAfterFailures: e.WEBHOOK_DISABLE_AFTER_FAILURES, timeoutMs: e.WEBHOOK_TIMEOUT_MS },
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
    rateLimits: { reads: e.RATE_LIMIT_READS, writes: e.RATE_LIMIT_WRITES, insights: e.RATE_LIMIT_INSIGHTS, windowS: e.RATE_LIMIT_WINDOW_S },
    trustProxy: parseTrustProxy(e.TRUST_PROXY)!,
  };
}

/** The database the configuration names: a PostgreSQL server (DATABASE_URL) or the embedded one in DATA_DIR. */
export function databaseOf(config: Config): Database {
  if (!config.databaseUrl) return { dataDir: config.dataDir };
  const { urls, ...replicas } = config.databaseReplicas;
  return { url: config.databaseUrl, schema: config.databaseSchema, ...(urls.length ? { replicas: { urls, ...replicas } } : {}) };
}
