import type { FastifyServerOptions } from 'fastify';

/**
 * Fastify's pino logger with request ids (reqId on every line, taken from X-Request-Id when
 * a terminal sends one). Tokens and client secrets travel in the Authorization header and the
 * token endpoint's form body; neither is ever logged: headers are redacted and bodies are not
 * logged at all.
 */
export function loggerOptions(level = 'info', stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.body', 'headers.authorization', 'body.client_secret', 'body.password'],
      censor: '[redacted]',
    },
    ...(stream ? { stream } : {}),
  };
}
