import pino from 'pino';

export type Logger = pino.Logger;

/** Structured JSON logs; credentials are redacted wherever they could appear. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: {
      // A SAML login's redirect carries the new API token in its Location.
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers.location', 'token', '*.token'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
