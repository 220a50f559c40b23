import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type Router } from 'express';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** Files of the playground page, served by this server so that it works with no internet access. */
const assets: Record<string, string> = {
  'react.js': join(packageDir('react'), 'umd', 'react.production.min.js'),
  'react-dom.js': join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'),
  'graphiql.js': join(packageDir('graphiql'), 'dist', 'index.umd.js'),
  'graphiql.css': join(packageDir('graphiql'), 'dist', 'style.css'),
  // The subscription client (window.graphqlWs), for subscriptions over the WebSocket door.
  'graphql-ws.js': join(packageDir('graphql-ws'), 'umd', 'graphql-ws.min.js'),
};

const defaultQuery = `# The schema (Docs) loads without a
# token. To run queries, open the
# Headers tab below and add your
# API token:
# {"Authorization": "Bearer dp_..."}
#
# Subscriptions run too (WebSocket):
# subscription {
#   spaceComments(spaceId: "...") {
#     type actor { displayName }
#     payload
#   }
# }

query Overview {
  viewer { id displayName email }
  organizations(limit: 5) {
    items {
      id
      title
      collections {
        items { id title }
      }
      spaces(limit: 10) {
        items {
          id title emoji
          permissions { admin edit }
        }
        count
      }
    }
  }
}
`;

const page = (base: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>GraphQL playground</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="${base}/assets/graphiql.css">
  <style>body { margin: 0; height: 100vh; } #playground { height: 100vh; }</style>
</head>
<body>
  <div id="playground">Loading…</div>
  <script src="${base}/assets/react.js"></script>
  <script src="${base}/assets/react-dom.js"></script>
  <script src="${base}/assets/graphiql.js"></script>
  <script src="${base}/assets/graphql-ws.js"></script>
  <script>
    const overHttp = GraphiQL.createFetcher({ url: ${JSON.stringify(base)} });
    // Subscriptions go over WebSocket to the same path, the token of the headers editor sent with
    // connection_init (a browser cannot set headers on a WebSocket): one connection per token.
    const socketUrl = location.origin.replace(/^http/, 'ws') + ${JSON.stringify(base)};
    const socketClients = new Map();
    const socketFor = (headers) => {
      const authorization = (headers && (headers.Authorization || headers.authorization)) || '';
      if (!socketClients.has(authorization)) {
        socketClients.set(authorization, graphqlWs.createClient({ url: socketUrl, connectionParams: authorization ? { authorization } : {}, retryAttempts: 0 }));
      }
      return socketClients.get(authorization);
    };
    // From the text sent (GraphiQL's parsed document may lag behind the editor): the named operation's keyword, else the first's.
    const isSubscription = (params) => {
      const text = (params.query || '').replace(/#[^\\n]*/g, '');
      return params.operationName ? new RegExp('\\\\bsubscription\\\\s+' + params.operationName + '\\\\b').test(text) : /^\\s*subscription\\b/.test(text);
    };
    const fetcher = (params, options = {}) =>
      isSubscription(params) ? socketFor(options.headers).iterate(params) : overHttp(params, options);
    // GraphiQL 3 has no option for it: the query editor wraps long lines (the hint's above all) at
    // any width instead of hiding their ends past its right edge.
    const playground = document.getElementById('playground');
    new MutationObserver(() => {
      const queryEditor = playground.querySelector('.graphiql-query-editor .CodeMirror');
      if (queryEditor && !queryEditor.CodeMirror.getOption('lineWrapping')) queryEditor.CodeMirror.setOption('lineWrapping', true);
    }).observe(playground, { childList: true, subtree: true });
    ReactDOM.createRoot(playground).render(
      React.createElement(GraphiQL, {
        fetcher,
        defaultQuery: ${JSON.stringify(defaultQuery)},
        headerEditorEnabled: true,
        shouldPersistHeaders: true,
      }),
    );
  </script>
</body>
</html>`;

/** GET /graphql from a browser opens GraphiQL; its scripts and styles come from local packages. */
export function playgroundRouter(base = '/graphql'): Router {
  const router = express.Router();
  for (const [name, file] of Object.entries(assets)) {
    router.get(`${base}/assets/${name}`, (_req, res) => res.sendFile(file, { maxAge: '1d' }));
  }
  router.get(base, (req, res, next) => {
    if (!req.accepts(['application/json', 'text/html']) || req.accepts(['application/json', 'text/html']) !== 'text/html' || req.query.query) {
      return next();
    }
    res.type('html').send(page(base));
  });
  return router;
}
