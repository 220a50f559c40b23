import pino from 'pino';
import { redactUrl, redactUrlsIn } from './url-redaction.js';

export type Logger = pino.Logger;

type LoggedRequest = { id?: unknown; method?: string; url?: string; originalUrl?: string };

/**
 * How requests and errors are logged, by the logger and by the HTTP request logger alike: a request
 * is its id, method and URL with its secrets redacted (see redactUrl); an error quoting a URL quotes
 * it redacted.
 */
export const logSerializers = {
  req: (req: LoggedRequest) => ({ id: req.id, method: req.method, url: redactUrl(String(req.originalUrl ?? req.url ?? '')) }),
  err: (err: unknown) => {
    // The HTTP request logger hands over errors it has serialized already.
    const serialized: unknown = err instanceof Error ? pino.stdSerializers.err(err) : err;
    if (typeof serialized !== 'object' || serialized === null) return serialized;
    const fields = serialized as { message?: unknown; stack?: unknown };
    if (typeof fields.message === 'string') fields.message = redactUrlsIn(fields.message);
    if (typeof fields.stack === 'string') fields.stack = redactUrlsIn(fields.stack);
    return fields;
  },
};

/** Structured JSON logs; credentials are redacted wherever they could appear. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    serializers: logSerializers,
    redact: {
      // A SAML login's redirect carries the new API token in its Location.
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers.location', 'token', '*.token'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
