import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters whose value is a credential: never written to the log. */
const CREDENTIAL_PARAMS = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'client_secret',
  'client_assertion',
  'password',
  'passwd',
  'secret',
  'api_key',
  'apikey',
  'authorization',
]);

const decodeName = (name: string) => {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
};

/** The URL with the value of every credential parameter (`?access_token=…`) replaced by [redacted]. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return eq >= 0 && CREDENTIAL_PARAMS.has(decodeName(name).trim().toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/**
 * Fastify's pino logger with request ids (reqId on every line, taken from X-Request-Id when
 * a terminal sends one). Tokens and client secrets travel in the Authorization header and the
 * token endpoint's form body; neither is ever logged: headers are redacted and bodies are not
 * logged at all. A client that puts a token in the URL (`?access_token=`) has it redacted from
 * the logged URL.
 */
export function loggerOptions(level = 'info', stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.body', 'headers.authorization', 'body.client_secret', 'body.password'],
      censor: '[redacted]',
    },
    serializers: {
      // Fastify's own request serializer, with the URL redacted.
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        version: request.headers?.['accept-version'] as string | undefined,
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    ...(stream ? { stream } : {}),
  };
}
