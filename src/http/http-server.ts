import { createServer, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The server could not bind its port: a one-line message for the operator, printed instead of a stack. */
export class ListenError extends Error {}

/** The variables that configure a listener (the main port's, or the metrics port's), for the advice. */
type ListenVariables = { port: string; host: string };

const LISTEN_ADVICE: Record<string, (names: ListenVariables) => string> = {
  EADDRINUSE: (names) => `another process listens on this port; stop it or set ${names.port}`,
  EACCES: (names) => `not allowed to listen on this port; set ${names.port}`,
  EADDRNOTAVAIL: (names) => `${names.host} is not an address of this machine`,
};

const NOT_READY = {
  starting: 'Starting: migrations and first-start provisioning are not finished',
  stopping: 'Shutting down',
};

/** The 503 of a server that does not serve yet (starting) or any more (stopping); `/healthz` answers it too. */
export function answerNotReady(res: ServerResponse, phase: keyof typeof NOT_READY): void {
  res.statusCode = 503;
  if (phase === 'starting') res.setHeader('retry-after', '1');
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify({ status: phase, error: { code: 503, message: NOT_READY[phase] } }));
}

export type HttpServer = ReturnType<typeof createHttpServer>;

/**
 * The HTTP listener. It binds before anything else starts, so that a taken port fails at once, and
 * answers 503 until `serve` hands it the application. Idle keep-alive connections stay open longer
 * than load balancers keep theirs (the balancer closes first, never under a request it is sending).
 * `drain` is the shutdown: no new connections, requests in flight finish within a bound, and every
 * connection is closed as soon as it has nothing left to answer.
 */
export function createHttpServer(options: { keepAliveTimeoutMs: number }) {
  const server = createServer();
  server.keepAliveTimeout = options.keepAliveTimeoutMs;
  // A request's headers may take a little longer than the idle wait before it (load balancer advice).
  server.headersTimeout = options.keepAliveTimeoutMs + 1000;
  server.requestTimeout = Math.max(server.requestTimeout, server.headersTimeout);

  let listener: RequestListener = (_req, res) => answerNotReady(res, 'starting');
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  server.on('request', (req, res) => {
    if (draining) {
      res.setHeader('connection', 'close');
    } else {
      inFlight.add(res);
      res.once('close', () => inFlight.delete(res));
    }
    listener(req, res);
  });

  return {
    server,
    get draining() {
      return draining;
    },

    /** Binds `host:port`; resolves with the port bound (chosen by the system when `port` is 0). */
    listen(port: number, host: string, names: ListenVariables = { port: 'PORT', host: 'HOST' }): Promise<number> {
      return new Promise((resolve, reject) => {
        const refused = (error: NodeJS.ErrnoException) => {
          const reason = (error.code && LISTEN_ADVICE[error.code]?.(names)) || error.message;
          reject(new ListenError(`Cannot listen on ${host}:${port}: ${error.code ?? 'error'} (${reason})`));
        };
        server.once('error', refused);
        server.listen(port, host, () => {
          server.off('error', refused);
          resolve((server.address() as AddressInfo).port);
        });
      });
    },

    /** From now on requests go to `app`. */
    serve(app: RequestListener) {
      listener = app;
    },

    /**
     * Closes the listening socket and idle connections at once; answers what is in flight (and what
     * still comes on open connections) with `Connection: close`; at `deadline` destroys every
     * connection left. Resolves when none is left: true if that was before the deadline.
     */
    async drain(deadline: AbortSignal): Promise<boolean> {
      draining = true;
      for (const res of inFlight) {
        if (!res.headersSent) res.setHeader('connection', 'close');
        else if (!res.writableFinished) {
          // Already answering with keep-alive (a streamed body): close once the body is out.
          const socket = res.socket;
          res.once('finish', () => socket?.end());
        }
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const destroyAll = () => server.closeAllConnections();
      if (deadline.aborted) destroyAll();
      else deadline.addEventListener('abort', destroyAll, { once: true });
      await closed;
      deadline.removeEventListener('abort', destroyAll);
      return !deadline.aborted;
    },
  };
}
