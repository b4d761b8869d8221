import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../helpers/modules.js';
import { openDeps, type AppDeps } from '../../server/deps.js';
import { defaultUiDir, isLoopback } from '../../server/platform/http/ui.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';

/** server/platform/http/ui.ts: /ui for this PC only unless --ui-lan, a 503 before a build, hidden from OpenAPI. */
describe('serving the back-office UI at /ui', () => {
  let dir: string;
  let app: FastifyInstance;
  let deps: AppDeps;

  const start = async (ui: { lan?: boolean; built?: boolean } = {}) => {
    dir = mkdtempSync(join(tmpdir(), 'pos-ui-serve-'));
    const uiDir = join(dir, 'ui');
    if (ui.built !== false) {
      mkdirSync(join(uiDir, 'assets'), { recursive: true });
      writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>ui</title>');
      writeFileSync(join(uiDir, 'assets/app-abc123.js'), 'console.log(1)');
    }
    deps = openDeps({ file: join(dir, 'pos.sqlite'), ui: { lan: ui.lan ?? false, dir: uiDir } });
    new ContractRepo(deps.db, deps.writer, deps.clock).create({ contractId: 'shop-1', name: 'Shop One', plan: 'premium', timeZone: 'Asia/Tokyo' });
    app = await buildApp(deps);
  };
  afterEach(async () => {
    await app?.close();
    deps?.db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, remoteAddress = '127.0.0.1') => app.inject({ method: 'GET', url, remoteAddress });

  it('redirects /ui to /ui/ and serves index.html, the hashed assets and config.json to this PC', async () => {
    await start();
    const bare = await get('/ui?x=1');
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/ui/?x=1');
    const index = await get('/ui/');
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers['content-security-policy']).toContain("default-src 'self'");
    expect(index.body).toContain('<title>ui</title>');
    const asset = await get('/ui/assets/app-abc123.js', '::1');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const config = await get('/ui/config.json', '::ffff:127.0.0.1');
    expect(config.json()).toEqual({ version: expect.any(String), contracts: [{ id: 'shop-1', name: 'Shop One', plan: 'premium', timeZone: 'Asia/Tokyo' }] });
    expect((await get('/ui/missing.js')).statusCode).toBe(404);
    expect((await get('/ui/../package.json')).statusCode).not.toBe(200);
  });

  it('answers the LAN with a 403 problem unless LAN access is on', async () => {
    await start();
    for (const url of ['/ui/', '/ui/config.json', '/ui/assets/app-abc123.js']) {
      const res = await get(url, '192.168.1.20');
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json().detail).toMatch(/LAN access is off.*--ui-lan/);
    }
    // The API itself is for the LAN: only the UI is closed.
    expect((await get('/health', '192.168.1.20')).statusCode).toBe(200);
    await app.close();
    deps.db.close();
    rmSync(dir, { recursive: true, force: true });
    await start({ lan: true });
    expect((await get('/ui/', '192.168.1.20')).statusCode).toBe(200);
  });

  it('says to run npm run build when the UI was not built, and keeps /ui out of OpenAPI', async () => {
    await start({ built: false });
    const res = await get('/ui/');
    expect(res.statusCode).toBe(503);
    expect(res.json().detail).toMatch(/npm run build/);
    // The contract list does not need the build (the login of a dev server uses it).
    expect((await get('/ui/config.json')).statusCode).toBe(200);
    const doc = (await get('/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/ui'))).toEqual([]);
  });

  it('finds dist/ui from the compiled server and from the TypeScript sources', () => {
    expect(defaultUiDir('file:///opt/pos/dist/server/platform/http/ui.js')).toBe('/opt/pos/dist/ui');
    expect(defaultUiDir('file:///work/pos/server/platform/http/ui.ts')).toBe('/work/pos/dist/ui');
    expect(['127.0.0.1', '127.8.0.1', '::1', '::ffff:127.0.0.1'].every(isLoopback)).toBe(true);
    expect(['192.168.1.2', '::ffff:10.0.0.1', 'fe80::1', undefined].some(isLoopback)).toBe(false);
  });
});
