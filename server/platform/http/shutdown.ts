import type { FastifyInstance } from 'fastify';

/**
 * Stopping (the app quitting, a central process restarting): Fastify's close() stops accepting,
 * closes the keep-alive connections idle at that moment and waits for the others. A request in
 * flight then leaves its connection open after its answer until the client drops it, and clients
 * (registers, undici's fetch) keep it for the server's keep-alive time, 72 s: the stop hung that
 * long. So once closing, an answer says `Connection: close`, and each finished answer closes the
 * connections that have gone idle since.
 */
export function registerGracefulClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async () => {
    // An answer whose headers left before close() began (a download streaming) still said keep-alive.
    if (closing) setImmediate(() => app.server.closeIdleConnections());
  });
}
