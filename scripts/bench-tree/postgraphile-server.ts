import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import type { PgClient, WithPgClient } from '@dataplan/pg';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { sqlObservers } from '../../src/db/sql-observers.js';
import { pgliteAdaptor } from './pglite-adaptor.js';

/** The database PostGraphile serves: the server's own (URL and schema), or the embedded PGlite the server holds. */
export type PostGraphileSource = { url: string; schema?: string } | { pglite: PGlite };

/** As many connections as the server's own pool (src/db/orm.ts), so neither side has more to work with. */
const POOL_SIZE = 10;

/** Lets the bench count PostGraphile's statements like the server's: every query tells `sqlObservers`. */
function observedClient<C extends PgClient>(client: C): C {
  return {
    ...client,
    query: (opts) => {
      for (const observe of sqlObservers) observe(opts.text);
      return client.query(opts);
    },
    withTransaction: (callback) => client.withTransaction((inner) => callback(observedClient(inner))),
  };
}

function observed<K extends keyof GraphileConfig.PgAdaptors>(service: GraphileConfig.PgServiceConfiguration<K>): GraphileConfig.PgServiceConfiguration<K> {
  type Client = GraphileConfig.PgAdaptors[K]['client'];
  const { adaptor } = service;
  const createWithPgClient = async (...args: Parameters<typeof adaptor.createWithPgClient>) => {
    const withPgClient = await adaptor.createWithPgClient(...args);
    const wrapped: WithPgClient<Client> = (pgSettings, callback) => withPgClient(pgSettings, (client) => callback(observedClient(client)));
    wrapped.release = withPgClient.release;
    return wrapped;
  };
  return { ...service, adaptor: { ...adaptor, createWithPgClient } };
}

/**
 * PostGraphile 5 (amber preset) on its own port, configured as for production: no watch mode, no
 * GraphiQL, no explain, no GraphQL over GET or websockets, no LISTEN/NOTIFY client, and no query
 * logging (PostGraphile logs none unless asked). It introspects the database at start: the tables'
 * foreign keys give the relations (site → site_section → site_space → space).
 */
export async function startPostGraphile(source: PostGraphileSource) {
  const service =
    'pglite' in source
      ? observed(pgliteAdaptor.makePgService({ pglite: source.pglite }))
      : observed(makePgService({ connectionString: source.url, schemas: [source.schema ?? 'public'], poolConfig: { max: POOL_SIZE }, pubsub: false }));
  const pgl = postgraphile({
    extends: [PostGraphileAmberPreset],
    pgServices: [service],
    grafserv: { graphiql: false, watch: false, graphqlOverGET: false, websockets: false },
    grafast: { explain: false },
  });
  const serv = pgl.createServ(grafserv);
  const server = createServer();
  await serv.addTo(server);
  await pgl.getSchema(); // introspection and schema building happen now, not in the first measured request
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      await pgl.release();
    },
  };
}
