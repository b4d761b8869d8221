import type { FastifyInstance } from 'fastify';

/** How often a closing server closes the keep-alive connections gone idle since the last look. */
const SWEEP_MS = 50;

/**
 * Stopping (the app quitting, a central process restarting): Fastify's close() stops accepting,
 * closes the keep-alive connections idle at that moment and waits for the others. A request in
 * flight then left its connection open after its answer until the client dropped it, and clients
 * (registers, undici's fetch) keep it for the server's keep-alive time, 72 s: the stop hung that
 * long. So while closing, the connections that have gone idle are closed every SWEEP_MS until the
 * server has closed. Nothing is added to a request's own path (no hook per request).
 */
export function registerGracefulClose(app: FastifyInstance): void {
  app.addHook('preClose', (done) => {
    const server = app.server;
    if (server.listening) {
      const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS).unref();
      server.once('close', () => clearInterval(sweep));
    }
    done();
  });
}
