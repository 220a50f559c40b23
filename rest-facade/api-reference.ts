import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import { stringify } from 'yaml';
import { openApiDocument } from './openapi/document.js';
import type { Config } from '../src/kernel/config.js';

const require = createRequire(import.meta.url);
const swaggerUi = dirname(require.resolve('swagger-ui-dist/package.json'));

/** Files of the reference page, served by this server so that it works with no internet access. */
const assets: Record<string, string> = {
  'swagger-ui.css': join(swaggerUi, 'swagger-ui.css'),
  'swagger-ui-bundle.js': join(swaggerUi, 'swagger-ui-bundle.js'),
  'favicon-32x32.png': join(swaggerUi, 'favicon-32x32.png'),
};

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>REST API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <style>body { margin: 0; }</style>
</head>
<body>
  <div id="reference">Loading…</div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: '/v1/openapi.json',
      dom_id: '#reference',
      deepLinking: true,
      // Never the public validator badge: the page makes no request beyond this server.
      validatorUrl: null,
      // The token lives in the page, not in local storage: a shared browser keeps none.
      persistAuthorization: false,
      displayOperationId: true,
      docExpansion: 'none',
      filter: true,
      tryItOutEnabled: false,
      // PUBLIC_URL (the first server) on another origin than this page is a cross-origin call that
      // CORS_ORIGINS may not allow: "Try it out" calls the server that served the page instead.
      onComplete() {
        const first = window.ui.specSelectors.servers().first();
        if (first && new URL(first.get('url'), location.href).origin !== location.origin) window.ui.oas3Actions.setSelectedServer('/v1');
      },
    });
  </script>
</body>
</html>`;

/**
 * The REST door's OpenAPI document (generated once at start-up, from the route table and the schema) at
 * `/v1/openapi.json` and `/v1/openapi.yaml`, and the reference page at `/docs` (Swagger UI from the
 * `swagger-ui-dist` package). All public: they describe the API, not anyone's data.
 */
export function apiReferenceRouter(schema: GraphQLSchema, config: Config): Router {
  const document = openApiDocument(schema, config);
  const json = JSON.stringify(document);
  // YAML on first ask: it takes longer to write than the document to make, and few ask for it.
  let yaml: string | undefined;
  const router = express.Router();
  // express.send adds an ETag and answers If-None-Match with 304.
  router.get('/v1/openapi.json', (_req, res) => void res.type('application/json').send(json));
  router.get('/v1/openapi.yaml', (_req, res) => void res.type('application/yaml').send((yaml ??= stringify(document, { aliasDuplicateObjects: false }))));
  for (const [name, file] of Object.entries(assets)) {
    router.get(`/docs/assets/${name}`, (_req, res) => res.sendFile(file, { maxAge: '1d' }));
  }
  router.get(['/docs', '/docs/'], (_req, res) => void res.type('html').send(page));
  return router;
}
