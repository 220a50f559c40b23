import express, { type Request, type Response, type Router } from 'express';
import { sendError, sendFailure } from '../../http/responses.js';
import type { AppDeps } from '../../kernel/context.js';
import { SamlProvider } from './entities.js';
import { finishLogin, startLogin } from './login.js';
import { signingKey } from './service-provider.js';

/**
 * The browser-facing SAML endpoints of each provider (its `service` URLs), outside the /v1 contract:
 * `GET start` sends the browser to the identity provider, `POST acs` takes the identity provider's
 * answer (HTTP-POST binding) and sends the browser on with a new API token, `GET metadata` describes
 * this service provider for the identity provider's configuration.
 */
export function samlRouter(deps: AppDeps): Router {
  const router = express.Router();
  const handle = (work: (req: Request, res: Response) => Promise<unknown>) => async (req: Request, res: Response) => {
    try {
      await work(req, res);
    } catch (error) {
      return sendFailure(req, res, error, deps.logger, { endpoint: 'saml' });
    }
  };

  router.get(
    '/:providerId/start',
    handle(async (req, res) => {
      const returnTo = typeof req.query.returnTo === 'string' ? req.query.returnTo : undefined;
      res.redirect(302, await startLogin(deps, String(req.params.providerId), returnTo));
    }),
  );

  router.post(
    '/:providerId/acs',
    express.urlencoded({ extended: false, limit: deps.config.bodyLimit }),
    handle(async (req, res) => {
      const { redirect } = await finishLogin(deps, String(req.params.providerId), (req.body as Record<string, unknown> | undefined)?.SAMLResponse);
      // 303: the browser follows with a GET; the token rides in the fragment, which it never sends to a server.
      res.redirect(303, redirect);
    }),
  );

  router.get(
    '/:providerId/metadata',
    handle(async (req, res) => {
      const em = deps.orm.em.fork();
      const provider = await em.findOne(SamlProvider, { id: String(req.params.providerId) });
      if (!provider) return sendError(res, 404, 'SAML provider not found');
      const key = await signingKey(em, deps.clock, deps.config);
      const { serviceProviderMetadata } = await import('./saml-protocol.js');
      res.type('application/samlmetadata+xml').send(serviceProviderMetadata(provider.id, key, deps.config));
    }),
  );

  return router;
}
