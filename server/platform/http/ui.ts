import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppDeps } from '../../deps.js';
import { ContractRepo } from '../contracts/repo.js';
import { VERSION } from '../../version.js';
import { sendProblem } from './errors.js';
import { Forbidden } from './problem.js';

export const UI_PATH = '/ui';

/**
 * Where the built UI is: dist/ui beside the compiled server (dist/server/platform/http/ui.js → dist/ui),
 * and <project>/dist/ui when this file runs from its TypeScript source (vitest, tsx).
 */
export function defaultUiDir(moduleUrl = import.meta.url): string {
  const here = dirname(fileURLToPath(moduleUrl));
  return moduleUrl.endsWith('.ts') ? resolve(here, '../../../dist/ui') : resolve(here, '../../../ui');
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (a dual-stack listener reports ::ffff:127.0.0.1). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/**
 * The back-office web UI (app/ui, built by build/compile.mjs) at /ui/, and /ui/config.json (the
 * contracts on this server, so the login needs no typing with one contract). By default only the
 * PC itself gets it: the UI is where staff manage masters and close days, and the register
 * terminals on the LAN need only the API. `serve --ui-lan` opens it to the LAN.
 */
export async function registerUi(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const dir = deps.config.ui.dir ?? defaultUiDir();
  const contracts = new ContractRepo(deps.db, deps.writer, deps.clock);

  await app.register(async (ui) => {
    // serve:false: only reply.sendFile (scoped to this plugin); the routes below decide what is served.
    await ui.register(fastifyStatic, { root: dir, serve: false, wildcard: false });

    ui.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!deps.config.ui.lan && !isLoopback(request.socket.remoteAddress)) {
        throw new Forbidden('the back-office UI is served to this PC only: LAN access is off (start the server with serve --ui-lan or POS_UI_LAN=1)');
      }
      reply.headers({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        // Same-origin scripts and API calls only; Pico and uPlot set styles from code.
        'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
      });
      if (request.url.startsWith(`${UI_PATH}/config.json`)) return;
      // Checked per request so building while the server runs needs no restart.
      if (!existsSync(join(dir, 'index.html'))) {
        return sendProblem(reply, {
          type: 'about:blank',
          title: 'Service Unavailable',
          status: 503,
          detail: `the back-office UI is not built (no ${join(dir, 'index.html')}): run \`npm run build\``,
        });
      }
    });

    const hide = { schema: { hide: true } };
    // With ignoreTrailingSlash this one route answers /ui and /ui/: the first is sent to the
    // second so the page's relative asset URLs resolve under /ui/.
    ui.get(UI_PATH, hide, async (request, reply) => {
      const [path, query] = splitUrl(request.url);
      if (path === UI_PATH) return reply.redirect(`${UI_PATH}/${query}`, 301);
      return sendIndex(reply);
    });
    ui.get(`${UI_PATH}/config.json`, hide, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { version: VERSION, contracts: contracts.list().map((c) => ({ id: c.contractId, name: c.name, plan: c.plan, timeZone: c.timeZone })) };
    });
    ui.get(`${UI_PATH}/*`, hide, async (request, reply) => {
      const file = (request.params as { '*': string })['*'];
      if (file === '' || file === 'index.html') return sendIndex(reply);
      // Vite fingerprints everything under assets/: cache it for good.
      const hashed = file.startsWith('assets/');
      return reply.sendFile(file, { maxAge: hashed ? 365 * 24 * 3600 * 1000 : 0, immutable: hashed });
    });
  });
}

/** index.html names the current fingerprinted assets: always revalidated. */
function sendIndex(reply: FastifyReply) {
  return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
}

function splitUrl(url: string): [string, string] {
  const q = url.indexOf('?');
  return q < 0 ? [url, ''] : [url.slice(0, q), url.slice(q)];
}
